import type { Answer, Exchange } from './answers'
import { BODY_KEEP_BYTES } from './answers'
import type { FuzzRequest } from './requests'

/**
 * The properties every exchange must hold: no transport error, no dropped request, no 5xx, every
 * 4xx in the documented `{"detail": …}` shape (docs/api.md "Authentication and errors"), every JSON
 * answer parseable, no file from outside the static roots.
 */
export function violationsOf(request: FuzzRequest, exchange: Exchange, consoleBuilt: boolean): string[] {
  const problems: string[] = []
  if (exchange.error) problems.push(`transport error: ${exchange.error}`)
  const methods = request.transport === 'raw' ? request.raw.methods : [request.http.method]
  problems.push(...unanswered(request, exchange, methods))
  const last = exchange.answers.at(-1)
  // A raw request ends with GET /healthz on the same connection: if that was reached, it must be answered as such.
  if (request.transport === 'raw' && !request.raw.truncated && exchange.answers.length === methods.length && last && last.status !== 200) {
    problems.push(`the follow-up GET /healthz on the same connection answered ${last.status}`)
  }
  exchange.answers.forEach((answer, i) => problems.push(...answerProblems(answer, methods[i] ?? 'GET', consoleBuilt)))
  return problems
}

/** Requests left unanswered are fine only after an answer that closed the connection, or when the client cut its request short. */
function unanswered(request: FuzzRequest, exchange: Exchange, methods: readonly string[]): string[] {
  if (exchange.error || exchange.answers.length >= methods.length || exchange.silenceAllowed) return []
  // Node's server drops an HTTP/2 preface (`PRI`) without a word, before any hook could answer it.
  if (methods[0] === 'PRI' && exchange.answers.length === 0) return []
  if (exchange.answers.some((a) => /close/i.test(a.headers.connection ?? ''))) return []
  return [`dropped: ${exchange.answers.length} of ${methods.length} requests answered, no Connection: close`]
}

function answerProblems(answer: Answer, method: string, consoleBuilt: boolean): string[] {
  const problems: string[] = []
  const text = answer.body.toString('utf8')
  if (answer.status >= 500 && !(answer.status === 503 && !consoleBuilt && text.includes('console has not been built'))) {
    problems.push(`${answer.status}: ${text.slice(0, 200)}`)
  }
  const json = /^application\/json/i.test(answer.headers['content-type'] ?? '')
  const complete = answer.bodyBytes <= BODY_KEEP_BYTES && method !== 'HEAD'
  let parsed: unknown
  if (json && complete) {
    try {
      parsed = JSON.parse(text)
    } catch {
      problems.push(`${answer.status} JSON answer that does not parse: ${text.slice(0, 120)}`)
    }
  }
  // A static file's 416 (Range Not Satisfiable) carries `Content-Range: bytes */size`, as RFC 9110 asks, and no JSON.
  const staticRange = answer.status === 416 && /^bytes \*\//.test(answer.headers['content-range'] ?? '')
  if (answer.status >= 400 && answer.status < 500 && complete && !staticRange && !isDocumentedError(parsed)) {
    problems.push(`${answer.status} not in the documented error shape (${answer.headers['content-type'] ?? 'no type'}): ${text.slice(0, 200)}`)
  }
  if (/root:x:0:0:|"allowScripts"/.test(text)) problems.push(`${answer.status} served a file from outside the static roots`)
  return problems
}

/** `{"detail": "…"}` (HTTPError) or `{"detail": [{type, loc, msg, …}]}` (HTTPValidationError), as /openapi.json declares them. */
export function isDocumentedError(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('detail' in value)) return false
  const { detail } = value as { detail: unknown }
  if (typeof detail === 'string') return true
  return Array.isArray(detail) && detail.length > 0 && detail.every(isValidationError)
}

function isValidationError(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false
  const { type, loc, msg } = item as Record<string, unknown>
  return typeof type === 'string' && typeof msg === 'string' && Array.isArray(loc) && loc.every((part) => typeof part === 'string' || Number.isInteger(part))
}
