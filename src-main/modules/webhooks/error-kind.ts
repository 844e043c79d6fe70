import type { DeliveryErrorKind } from '../../../src-shared/schemas/webhooks'

/*
 * What went wrong before a status came back, as a kind a support engineer can act on: the name
 * does not resolve (dns), nothing listens (refused), the certificate or handshake failed (tls),
 * no answer in time (timeout), the connection was cut (reset). Read from the error's code and the
 * codes of its causes (Node's socket errors, undici's UND_ERR_*, OpenSSL's certificate codes).
 */

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA'])
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])
const TIMEOUT = new Set(['ABORT_ERR', 'ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED', 'CERT_UNTRUSTED', 'CERT_REJECTED',
  'HOSTNAME_MISMATCH', 'EPROTO',
])
const isTls = (code: string) => TLS_CODES.has(code) || /^(ERR_TLS_|ERR_SSL_|CERT_|SSL_)/.test(code)

/** The codes of an error and of its causes, outermost first. */
function codesOf(error: unknown): string[] {
  const codes: string[] = []
  let current: unknown = error
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown }
    if (typeof code === 'string') codes.push(code)
    if (name === 'AbortError' || name === 'TimeoutError') codes.push('ABORT_ERR')
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

export function errorKind(error: unknown): DeliveryErrorKind {
  const codes = codesOf(error)
  for (const code of codes) {
    if (code === 'EBLOCKED') return 'blocked'
    if (code === 'ETOOLARGE') return 'too_large'
    if (DNS.has(code)) return 'dns'
    if (code === 'ECONNREFUSED') return 'refused'
    if (TIMEOUT.has(code)) return 'timeout'
    if (isTls(code)) return 'tls'
    if (RESET.has(code)) return 'reset'
    if (code.startsWith('HPE_')) return 'protocol'
  }
  return 'other'
}

/** A sentence for the log: what happened, in words, with the code that says it. */
export function describeError(kind: DeliveryErrorKind, error: unknown, context: { host: string; timeoutMs: number }): string {
  const code = codesOf(error).find((c) => c !== 'ABORT_ERR')
  const suffix = code ? ` (${code})` : ''
  const message = error instanceof Error ? error.message : String(error)
  switch (kind) {
    case 'dns':
      return `DNS: ${context.host} could not be resolved${suffix}`
    case 'refused':
      return `Connection refused by ${context.host}: nothing listens on that port${suffix}`
    case 'timeout':
      return `Timeout: no complete answer within ${context.timeoutMs / 1000} s (the tenant's webhook_timeout_seconds)`
    case 'reset':
      return `Connection reset by the receiver before it answered${suffix}`
    case 'tls':
      return `TLS: ${message}${suffix}`
    case 'protocol':
      return `Not a valid HTTP answer: ${message}${suffix}`
    default:
      return message
  }
}
