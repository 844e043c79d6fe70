import { connect } from 'node:net'
import type { Answer, Exchange } from './answers'
import type { RawRequest } from './raw-requests'

const CLOSE_WITHIN_MS = 15_000

/**
 * Writes a raw request on a new connection (its follow-up once the rest is answered) and reads
 * until the server closes it (the last request asks for `Connection: close`), then parses the answers. A reset, an unparseable answer, more
 * answers than requests, or no close within 15 s is a transport error.
 */
export function sendRaw(host: string, port: number, request: RawRequest): Promise<Exchange> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let failure: string | undefined
    const socket = connect({ host, port })
    const timer = setTimeout(() => {
      failure = `no close within ${CLOSE_WITHIN_MS} ms`
      socket.destroy()
    }, CLOSE_WITHIN_MS)
    let followUp = request.followUp
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (!followUp) return
      const { answers } = parseAnswers(Buffer.concat(chunks), request.methods)
      if (answers.length < request.methods.length - 1) return
      if (!answers.some((a) => /close/i.test(a.headers.connection ?? ''))) socket.write(followUp)
      followUp = undefined
    })
    socket.on('error', (error: NodeJS.ErrnoException) => (failure ??= error.code ?? error.message))
    socket.on('close', () => {
      clearTimeout(timer)
      const parsed = parseAnswers(Buffer.concat(chunks), request.methods)
      resolve({ answers: parsed.answers, error: failure ?? parsed.error, silenceAllowed: request.truncated })
    })
    socket.write(request.bytes, () => {
      if (request.truncated) socket.end()
    })
  })
}

interface Parsed {
  answers: Answer[]
  error?: string
}

/** Parses consecutive HTTP/1.x answers; `methods` says which have no body (HEAD). */
export function parseAnswers(buffer: Buffer, methods: readonly string[]): Parsed {
  const answers: Answer[] = []
  let at = 0
  while (at < buffer.length) {
    const step = parseOne(buffer, at, methods[answers.length] ?? 'GET')
    if ('error' in step) return { answers, error: step.error }
    at = step.next
    if (step.answer.status >= 200) answers.push(step.answer)
  }
  if (answers.length > methods.length) return { answers, error: `${answers.length} answers to ${methods.length} requests` }
  return { answers }
}

type Step = { answer: Answer; next: number } | { error: string }

function parseOne(buffer: Buffer, at: number, method: string): Step {
  const end = buffer.indexOf('\r\n\r\n', at)
  if (end < 0) return { error: `unparseable answer: no end of head in ${JSON.stringify(buffer.subarray(at, at + 60).toString('latin1'))}` }
  const [statusLine = '', ...lines] = buffer.subarray(at, end).toString('latin1').split('\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})( |$)/.exec(statusLine)
  if (!status) return { error: `unparseable status line ${JSON.stringify(statusLine.slice(0, 60))}` }
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0) return { error: `unparseable header line ${JSON.stringify(line.slice(0, 60))}` }
    const name = line.slice(0, colon).toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  const code = Number(status[1])
  const body = bodyOf(buffer, end + 4, code, method, headers)
  if ('error' in body) return body
  return { answer: { status: code, headers, body: body.bytes, bodyBytes: body.bytes.length }, next: body.next }
}

function bodyOf(buffer: Buffer, from: number, status: number, method: string, headers: Record<string, string>): { bytes: Buffer; next: number } | { error: string } {
  if (method === 'HEAD' || status < 200 || status === 204 || status === 304) return { bytes: Buffer.alloc(0), next: from }
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) return dechunk(buffer, from)
  const length = headers['content-length']
  if (length === undefined) return { bytes: buffer.subarray(from), next: buffer.length }
  if (!/^\d+$/.test(length) || from + Number(length) > buffer.length) return { error: `body shorter than Content-Length ${length}` }
  return { bytes: buffer.subarray(from, from + Number(length)), next: from + Number(length) }
}

function dechunk(buffer: Buffer, from: number): { bytes: Buffer; next: number } | { error: string } {
  const parts: Buffer[] = []
  let at = from
  for (;;) {
    const lineEnd = buffer.indexOf('\r\n', at)
    const size = lineEnd < 0 ? NaN : parseInt(buffer.subarray(at, lineEnd).toString('latin1'), 16)
    if (!Number.isFinite(size) || lineEnd + 2 + size + 2 > buffer.length) return { error: 'unparseable chunked body' }
    if (size === 0) {
      const trailerEnd = buffer.indexOf('\r\n', lineEnd + 2)
      return trailerEnd < 0 ? { error: 'unterminated chunked body' } : { bytes: Buffer.concat(parts), next: trailerEnd + 2 }
    }
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}
