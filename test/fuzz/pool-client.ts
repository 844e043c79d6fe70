import { Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { keep, type Answer, type Exchange } from './answers'
import type { Body } from './bodies'
import type { Header } from './headers'

/** A request as node:http sends it: the target already percent-encoded, headers as given. */
export interface HttpRequest {
  method: string
  target: string
  headers: Header[]
  body: Body | null
  /** Sent with `Transfer-Encoding: chunked` in two chunks instead of a Content-Length. */
  chunked: boolean
}

const ANSWER_WITHIN_MS = 30_000

/** The request a pooled connection carried last: a reset on a reused connection may be that one's doing. */
const lastOn = new WeakMap<Socket, string>()

/**
 * Keep-alive connections shared by every request, few of them, so each carries many requests in
 * a row. Free sockets are closed after 4 s, before the server's 5 s keep-alive timeout could close
 * one under a request the agent is starting (a client-side race, not the server's fault).
 */
export function createPool(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, timeout: 4_000 })
}

/** Sends one request on the pool and reads the whole answer; any client-side error is reported. */
export function sendPooled(agent: Agent, host: string, port: number, request: HttpRequest): Promise<Exchange> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {}
    for (const [name, value] of request.headers) headers[name] = value
    // Framing is set here: node:http sends a GET's or DELETE's body unframed when left to itself.
    if (request.chunked) headers['Transfer-Encoding'] = 'chunked'
    else if (request.body && request.body.bytes.length > 0) headers['Content-Length'] = String(request.body.bytes.length)
    let req: ReturnType<typeof httpRequest>
    try {
      req = httpRequest({ host, port, agent, method: request.method, path: request.target, headers })
    } catch (error) {
      // node:http refused to send it (an invalid character): a generator bug, not a server finding.
      throw new Error(`node:http refused ${request.method} ${request.target.slice(0, 80)}: ${(error as Error).message}`)
    }
    let settled = false
    const done = (exchange: Exchange) => {
      if (settled) return
      settled = true
      resolve(exchange)
    }
    req.setTimeout(ANSWER_WITHIN_MS, () => req.destroy(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)))
    req.on('socket', (socket) => {
      previous = lastOn.get(socket)
      lastOn.set(socket, brief(request))
    })
    let previous: string | undefined
    req.on('error', (error: NodeJS.ErrnoException) => done({ answers: [], error: `${error.code ?? error.message}${previous ? ` on a reused connection, after ${previous}` : ''}` }))
    req.on('response', (res) => readAnswer(res, request).then((answer) => done({ answers: [answer] }), (error: Error) => done({ answers: [], error: error.message })))
    writeBody(req, request)
  })
}

/** The previous request on a connection, headers included: an Upgrade or a body there may explain a reset here. */
function brief(request: HttpRequest): string {
  const headers = request.headers.map(([name, value]) => `${name}: ${value.slice(0, 40)}`).join(' | ')
  return `${request.method} ${request.target.slice(0, 100)} [${headers}]${request.body ? ` body: ${request.body.label}` : ''}`
}

function writeBody(req: ReturnType<typeof httpRequest>, request: HttpRequest): void {
  // Early answers (413, 401, …) may come while the body is still being written; those write
  // errors are the request's 'error' event, already reported.
  req.on('error', () => {})
  const bytes = request.body?.bytes
  if (!bytes || bytes.length === 0) return void req.end()
  if (!request.chunked) return void req.end(bytes)
  const half = Math.floor(bytes.length / 2)
  req.write(bytes.subarray(0, half))
  req.end(bytes.subarray(half))
}

/** How long an answer that never ends on its own (the live tail) is read before the client closes it. */
const FOLLOW_FOR_MS = 300

/** The live tail's stream and SSE subscriptions answer 200 and go on until the client leaves. */
const isEndless = (res: IncomingMessage, request: HttpRequest) =>
  res.statusCode === 200 && (/^application\/x-ndjson/.test(String(res.headers['content-type'])) && pathOf(request.target) === '/logs/calls/stream' || String(res.headers['content-type']).startsWith('text/event-stream'))

/** The path as the server routes it (`/logs/calls/./stream` is `/logs/calls/stream`). */
function pathOf(target: string): string {
  try {
    return new URL(target, 'http://fuzz.invalid').pathname
  } catch {
    return target
  }
}

function readAnswer(res: IncomingMessage, request: HttpRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const kept: Buffer[] = []
    let keptBytes = 0
    let bodyBytes = 0
    if (isEndless(res, request)) {
      // Read a while, then leave, as a tool following the stream does; the server must take that well.
      setTimeout(() => {
        const headers: Record<string, string> = {}
        for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '')
        res.destroy()
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(kept), bodyBytes })
      }, FOLLOW_FOR_MS)
      res.on('data', (chunk: Buffer) => {
        bodyBytes += chunk.length
        keptBytes = keep(kept, keptBytes, chunk)
      })
      res.on('error', () => {})
      return
    }
    res.on('data', (chunk: Buffer) => {
      bodyBytes += chunk.length
      keptBytes = keep(kept, keptBytes, chunk)
    })
    res.on('error', reject)
    res.on('aborted', () => reject(new Error('answer aborted before its end')))
    res.on('end', () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '')
      resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(kept), bodyBytes })
    })
  })
}
