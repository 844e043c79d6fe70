import { createServer, type IncomingMessage } from 'node:http'
import { listenOnLoopback } from './loopback-server'

export interface ProxiedRequest {
  method: string
  /** Path and query, as received. */
  url: string
  authorization: string | undefined
  /** performance.now() when it arrived. */
  at: number
}

/** What to answer instead of the remote; undefined passes the request through. */
export type Fault = { status: number; body?: string; headers?: Record<string, string> } | undefined

export interface FaultProxy {
  url: string
  requests: ProxiedRequest[]
  /** Decides per request, given it and how many came before it. */
  setFault(fault: (request: ProxiedRequest, index: number) => Fault): void
  close(): Promise<void>
}

/**
 * A loopback HTTP proxy in front of a test server that can answer in its place: how tests make
 * a remote backend fail (503, 429 with Retry-After, garbage bodies) at chosen requests.
 */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const requests: ProxiedRequest[] = []
  let decide: (request: ProxiedRequest, index: number) => Fault = () => undefined
  const server = createServer(async (req: IncomingMessage, res) => {
    const request: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', authorization: req.headers.authorization, at: performance.now() }
    const index = requests.push(request) - 1
    const fault = decide(request, index)
    if (fault) {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers })
      res.end(fault.body ?? '')
      return
    }
    const upstream = await fetch(`${target}${request.url}`, {
      method: request.method,
      headers: request.authorization ? { authorization: request.authorization } : {},
    })
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
    res.end(Buffer.from(await upstream.arrayBuffer()))
  })
  const listener = await listenOnLoopback(server)
  return {
    url: listener.url,
    requests,
    setFault: (fault) => {
      decide = fault
    },
    close: listener.close,
  }
}
