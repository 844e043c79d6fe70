import type { SttProvider } from '../../../src-shared/schemas/provider-catalog'
import { redact } from './key-hint'

/** What the provider said about a key, from one cheap authenticated request (the catalog's key_check). */
export type KeyCheckOutcome =
  | { verdict: 'accepted'; reason: string; latencyMs: number }
  | { verdict: 'rejected'; reason: string; latencyMs: number }
  | { verdict: 'unverified'; reason: string; latencyMs?: number }

export const DEFAULT_KEY_CHECK_TIMEOUT_MS = 5000
/** Enough of an error body to find Google's API_KEY_INVALID; the body is never returned. */
const MAX_ERROR_BODY = 16 * 1024

/** The request the catalog's key_check describes, with the key placed as the auth entry says. */
export function keyCheckRequest(provider: SttProvider, key: string, baseUrl: string): { url: URL; init: RequestInit } {
  if (/\{[^}]*\}/.test(baseUrl)) {
    throw new KeyCheckSetupError(`the base URL ${baseUrl} has a placeholder to fill in`)
  }
  const url = new URL(`${baseUrl.replace(/\/+$/, '')}${provider.key_check.path}`)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KeyCheckSetupError(`the base URL ${baseUrl} is not http(s)`)
  const { auth } = provider
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (auth.query_param) {
    url.searchParams.set(auth.query_param, key)
  } else {
    const header = auth.header || 'Authorization'
    const prefix = auth.prefix ?? (auth.scheme === 'bearer' ? 'Bearer ' : auth.scheme === 'token' ? 'Token ' : '')
    headers[header] = `${prefix}${key}`
  }
  const method = provider.key_check.method.toUpperCase()
  // An empty body, so a POST check (Azure's issueToken) goes out with Content-Length: 0.
  const body = method === 'POST' || method === 'PUT' ? '' : undefined
  return { url, init: { method, headers, body, redirect: 'manual' } }
}

export class KeyCheckSetupError extends Error {}

function describeFailure(error: unknown, timeoutMs: number): string {
  const err = error as { name?: string; message?: string; cause?: { code?: string; message?: string } }
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `no answer within ${timeoutMs} ms`
  const code = err?.cause?.code
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host lookup failed',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'connection timed out',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  }
  if (code) return `${known[code] ?? 'network error'} (${code})`
  return err?.cause?.message ?? err?.message ?? String(error)
}

/**
 * Asks the provider whether it accepts `key`. 2xx: accepted. 401/403 (and Google's 400
 * API_KEY_INVALID): rejected. Anything else, a network error or no answer in time: unverified.
 * Never throws; no text in the outcome contains the key.
 */
export async function checkKeyWithProvider(
  provider: SttProvider,
  key: string,
  baseUrl: string,
  timeoutMs: number,
): Promise<KeyCheckOutcome> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const outcome = await (async (): Promise<KeyCheckOutcome> => {
    let request: ReturnType<typeof keyCheckRequest>
    try {
      request = keyCheckRequest(provider, key, baseUrl)
    } catch (error) {
      return { verdict: 'unverified', reason: `could not verify: ${(error as Error).message}` }
    }
    const signal = AbortSignal.timeout(timeoutMs)
    let response: Response
    try {
      response = await fetch(request.url, { ...request.init, signal })
    } catch (error) {
      return { verdict: 'unverified', reason: `could not verify: ${describeFailure(error, timeoutMs)}` }
    }
    const latencyMs = elapsed()
    const where = `${provider.key_check.method.toUpperCase()} ${provider.key_check.path}`
    const status = response.status
    try {
      if (status >= 200 && status < 300) {
        return { verdict: 'accepted', reason: `the provider accepted the key (HTTP ${status} from ${where})`, latencyMs }
      }
      if (status === 401) return { verdict: 'rejected', reason: `key rejected: the provider answered HTTP 401 (unauthorized)`, latencyMs }
      if (status === 403) {
        return { verdict: 'rejected', reason: `key rejected: the provider answered HTTP 403 (the key is not allowed to use this API)`, latencyMs }
      }
      if (status === 400 && /API_KEY_INVALID/.test(await readSome(response))) {
        return { verdict: 'rejected', reason: 'key rejected: the provider answered HTTP 400 API_KEY_INVALID', latencyMs }
      }
      if (status >= 300 && status < 400) {
        return { verdict: 'unverified', reason: `could not verify: the provider redirected (HTTP ${status}); check the base URL`, latencyMs }
      }
      return { verdict: 'unverified', reason: `could not verify: the provider answered HTTP ${status} to ${where}`, latencyMs }
    } catch (error) {
      return { verdict: 'unverified', reason: `could not verify: ${describeFailure(error, timeoutMs)}`, latencyMs }
    } finally {
      await response.body?.cancel().catch(() => undefined)
    }
  })()
  return { ...outcome, reason: redact(outcome.reason, key) } as KeyCheckOutcome
}

async function readSome(response: Response): Promise<string> {
  const reader = response.body?.getReader()
  if (!reader) return ''
  const chunks: Uint8Array[] = []
  let size = 0
  while (size < MAX_ERROR_BODY) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
  }
  reader.releaseLock()
  return Buffer.concat(chunks).toString('utf8')
}
