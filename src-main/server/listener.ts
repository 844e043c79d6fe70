import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo, Socket } from 'node:net'
import { getRequestListener, RequestError } from '@hono/node-server'
import type { Hono } from 'hono'
import { answerClientErrors } from './client-errors'
import type { HostGuard } from './host-guard'

export interface ListenerOptions {
  host: string
  /** 0 picks a free port. */
  port: number
  hostGuard?: HostGuard
  /** PEM certificate (chain) and key: the listener speaks HTTPS only (a team server; docs/api.md, "TLS"). */
  tls?: { cert: string | Buffer; key: string | Buffer }
}

export interface Listener {
  url: string
  host: string
  port: number
  close(): Promise<void>
}

export class ListenError extends Error {}

/** Serves a Hono app on a socket; resolves once it is accepting connections. */
export async function startListener(app: Pick<Hono, 'fetch'>, options: ListenerOptions): Promise<Listener> {
  // autoCleanupIncoming: false: unread bodies are settled by settleUnreadBodies, not by the adaptor.
  // requireHostHeader: false: Node's own 400 for a missing Host has no body; the adaptor refuses it
  // in the documented shape instead (answerAdaptorError).
  const handler = settleUnreadBodies(getRequestListener(app.fetch, { autoCleanupIncoming: false, errorHandler: answerAdaptorError }))
  // An https.Server is an http.Server behind a TLS handshake: the same events, the same client errors.
  const server: Server = options.tls
    ? (createTlsServer({ requireHostHeader: false, cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, handler) as unknown as Server)
    : createServer({ requireHostHeader: false }, handler)
  answerClientErrors(server, DRAIN_MAX_MS)
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new ListenError(
          error.code === 'EADDRINUSE'
            ? `port ${options.port} on ${options.host} is already in use; choose another with --port`
            : error.code === 'EADDRNOTAVAIL'
              ? `address ${options.host} is not available on this machine`
              : error.code === 'EACCES'
                ? `not allowed to listen on ${options.host}:${options.port}`
                : `could not listen on ${options.host}:${options.port}: ${error.message}`,
        ),
      )
    })
    server.listen(options.port, options.host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  options.hostGuard?.setPort(port)
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `${options.tls ? 'https' : 'http'}://${hostForUrl}:${port}`,
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Idle keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}

/**
 * The adaptor's own refusals (a Host header or target that makes no URL: `RequestError`) in the
 * documented shape; without this handler they are a 400 with an empty body. Anything else reaching
 * here escaped the app's onError: a bug, answered as one.
 */
function answerAdaptorError(error: unknown): Response {
  if (error instanceof RequestError) return Response.json({ detail: `Bad Request: ${error.message}` }, { status: 400 })
  console.error('Unhandled error in the HTTP adaptor:', error)
  return Response.json({ detail: 'Internal Server Error' }, { status: 500 })
}

/** An unread body of at most this many bytes is drained after an early answer; a larger one closes the connection. */
export const DRAIN_MAX_BYTES = 8 * 1024 * 1024
/** How long a drain (or the discarding before a close) may take before the socket is destroyed. */
export const DRAIN_MAX_MS = 5_000

type RequestListener = (incoming: IncomingMessage, outgoing: ServerResponse) => unknown

/**
 * Keeps a connection usable after an answer given before the request body was read (413 on the
 * declared length, 401, 404/405, 415, a handler that failed half-way through a stream).
 *
 * Why here: Node's http server, when a response finishes with the body unread, only dumps the
 * rest (resumes and discards it, with no bound but `requestTimeout`) and keeps the connection
 * alive. @hono/node-server's own cleanup (`autoCleanupIncoming`, on by default) drains for at most
 * 500 ms / 64 MiB and then destroys the socket after it answered with `Connection: keep-alive`, so
 * a client that reuses the connection got `UND_ERR_SOCKET`/EPIPE/a reset (issue 21). That cleanup is
 * off and this wrapper decides once per request, when the answer's head is written and the body
 * has not fully arrived (`!incoming.complete`):
 * - declared `Content-Length` up to DRAIN_MAX_BYTES: the connection stays alive; after the answer
 *   the rest of the body is read and discarded, so the next request on it parses cleanly;
 * - larger, or of unknown length (chunked): the answer carries `Connection: close`; after it the
 *   server half-closes (FIN) and keeps discarding what the client still sends (a "lingering
 *   close", as nginx does) so the client reads the answer instead of a reset, then closes.
 * Both are bounded by DRAIN_MAX_BYTES and DRAIN_MAX_MS: past either the socket is destroyed, so a
 * slow or endless sender never holds the server.
 */
export function settleUnreadBodies(listener: RequestListener): RequestListener {
  return (incoming, outgoing) => {
    const te = incoming.headers['transfer-encoding']
    const length = Number(incoming.headers['content-length'] ?? 0)
    if (te === undefined && !(length > 0)) return listener(incoming, outgoing)
    const declared = te === undefined && Number.isFinite(length) ? length : Number.POSITIVE_INFINITY
    const writeHead = outgoing.writeHead
    outgoing.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      outgoing.writeHead = writeHead
      if (!incoming.complete) {
        const socket = incoming.socket
        if (declared <= DRAIN_MAX_BYTES) {
          outgoing.once('finish', () => discardRest(incoming, socket, () => {}))
        } else {
          outgoing.setHeader('Connection', 'close')
          // Node ends a `Connection: close` answer with socket.destroySoon(); end the writing side
          // only, and destroy once the client's body is in (or a bound is reached).
          socket.destroySoon = () => {
            socket.end()
            discardRest(incoming, socket, () => socket.destroy())
          }
        }
      }
      return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args)
    } as ServerResponse['writeHead']
    return listener(incoming, outgoing)
  }
}

/** Reads and drops the rest of the body; `done` once it is all in, the socket destroyed past a bound. */
function discardRest(incoming: IncomingMessage, socket: Socket, done: () => void): void {
  if (incoming.readableEnded || socket.destroyed) return done()
  let bytes = 0
  const stop = () => {
    clearTimeout(timer)
    incoming.off('data', onData)
    incoming.off('end', onEnd)
    socket.off('close', stop)
  }
  const giveUp = () => {
    stop()
    socket.destroy()
  }
  const onEnd = () => {
    stop()
    done()
  }
  const onData = (chunk: Buffer) => {
    bytes += chunk.length
    if (bytes > DRAIN_MAX_BYTES) giveUp()
  }
  const timer = setTimeout(giveUp, DRAIN_MAX_MS)
  timer.unref()
  // A reader that gave up (the web stream of an abandoned request body) would pause the flow.
  incoming.removeAllListeners('data')
  incoming.on('data', onData)
  incoming.once('end', onEnd)
  socket.once('close', stop)
  incoming.resume()
}
