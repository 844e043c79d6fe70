import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { listenOnLoopback } from './loopback-server'

export interface TwirpRequest {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}

export type TwirpHandler = (req: TwirpRequest, res: ServerResponse) => void

/**
 * A stand-in LiveKit server on 127.0.0.1:<random port> speaking Twirp's JSON protocol. Records every
 * request; `handler` decides each answer.
 */
export async function startTwirpServer(handler: TwirpHandler) {
  const requests: TwirpRequest[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
      requests.push(recorded)
      handler(recorded, res)
    })
  })
  return { ...(await listenOnLoopback(server)), requests }
}

/** Answers with a JSON body, as a Twirp server does. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' })
  res.end(JSON.stringify(body))
}

/** A port nothing listens on (bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const server = await startTwirpServer(() => undefined)
  await server.close()
  return server.url
}
