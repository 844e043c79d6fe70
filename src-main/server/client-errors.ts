import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Content Too Large', 431: 'Request Header Fields Too Large' }

/** Parser error codes that are not a plain 400, as Node's own default answers them. */
const STATUS_OF: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'Content Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
}

/**
 * Answers the requests Node's HTTP parser refuses before any route runs (a malformed request line
 * or header, headers over 16 KiB, broken chunked framing) and CONNECT, in the documented
 * `{"detail": …}` shape with `Connection: close`, and closes without a reset (issue 21, fuzzing).
 *
 * Why: Node's default writes a bare 400/431 and destroys the socket at once. Bytes of the request
 * still unread then make the kernel send a reset, which can reach the client before it reads the
 * answer (ECONNRESET). And when the previous response on the connection has not ended yet (a
 * static file whose bytes are all out, `end()` not yet run) Node writes nothing at all. Here the
 * answer waits for that response, the writing side is ended (FIN), what the client still sends is
 * read and dropped, and the socket is destroyed once the client closes or `lingerMs` passes.
 * CONNECT without a listener would be dropped without a word; this is no proxy, so it is a 400.
 */
export function answerClientErrors(server: Server, lingerMs: number): void {
  const inFlight = new WeakMap<Socket, ServerResponse>()
  // Before the app's listener, which may write its answer at once.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    inFlight.set(req.socket, res)
    res.once('finish', () => inFlight.get(req.socket) === res && inFlight.delete(req.socket))
    // Nothing is upgraded here, and after a request with `Upgrade` Node's parser no longer reports
    // errors: a malformed next request on the connection got no answer and, 5 s later, a reset.
    if (req.headers.upgrade !== undefined) res.setHeader('Connection', 'close')
  })
  const answered = new WeakSet<Socket>()
  const answer = (socket: Socket, status: number, detail: string, packet?: Buffer) => {
    // The parser may report more errors on the same socket; one answer is enough.
    if (answered.has(socket)) return
    answered.add(socket)
    const pending = inFlight.get(socket)
    const write = (head: boolean) => writeAndLinger(socket, status, head ? null : detail, lingerMs)
    if (!pending || pending.writableFinished) return write(isHead(packet))
    // The bad bytes follow a request whose answer is under way: answer them after it, in order.
    if (pending.req.complete) return settled(pending, () => write(isHead(packet)))
    // They are in the body of the request being answered: too late if its answer has begun.
    if (pending.headersSent) return void socket.destroy()
    write(pending.req.method === 'HEAD')
  }
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string; rawPacket?: Buffer }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, title] = STATUS_OF[error.code ?? ''] ?? [400, 'Bad Request']
    answer(socket, status, error.reason ? `${title}: ${error.reason}` : title, error.rawPacket)
  })
  server.on('connect', (_req: IncomingMessage, socket: Socket) => answer(socket, 400, 'Bad Request: CONNECT is not supported, this server is no proxy'))
}

/**
 * Whether the refused request is a HEAD, whose answer must have no body (the client would read the
 * body as the next answer). Told from the bytes being parsed; a head long enough to arrive in two
 * reads may hide its method in the first one, and then a HEAD answer gets a body.
 */
function isHead(packet: Buffer | undefined): boolean {
  return packet?.subarray(0, 5).toString('latin1') === 'HEAD '
}

/** Runs `then` once the response has finished or its connection closed. */
function settled(res: ServerResponse, then: () => void): void {
  let done = false
  const once = () => {
    if (done) return
    done = true
    then()
  }
  res.once('finish', once)
  res.once('close', once)
}

/** Writes the answer (`detail` null: no body), ends the writing side, and reads until the client closes. */
function writeAndLinger(socket: Socket, status: number, detail: string | null, lingerMs: number): void {
  // A CONNECT socket comes without Node's error listener: a reset must not become an uncaught error.
  socket.on('error', () => {})
  if (!socket.writable) return void socket.destroy()
  const body = detail === null ? '' : JSON.stringify({ detail })
  const type = detail === null ? '' : 'Content-Type: application/json\r\n'
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  // Keep reading (and dropping) until the client closes, so no unread byte turns the close into a reset.
  const closeOnceBothEnded = () => socket.readableEnded && socket.writableFinished && socket.destroy()
  socket.on('data', () => {})
  socket.once('end', closeOnceBothEnded)
  socket.once('finish', closeOnceBothEnded)
  socket.resume()
  const timer = setTimeout(() => socket.destroy(), lingerMs)
  timer.unref()
  socket.once('close', () => clearTimeout(timer))
}


