import { setTimeout as sleep } from 'node:timers/promises'
import { createRateLimiter } from './rate-limiter'
import { backoffDelay, parseRetryAfter, RETRYABLE_STATUSES } from './retry-policy'

export type RemoteErrorKind =
  /** 401/403: the token is wrong or may not read this; retrying cannot help. */
  | 'auth'
  /** 404: the resource does not exist there (or is hidden from this token). */
  | 'not_found'
  /** Another 4xx: the remote refused the request as asked. */
  | 'rejected'
  /** Still failing (network, timeout, 429, 5xx) after every retry. */
  | 'unavailable'
  /** A 200 whose body is not JSON: not trusted, not stored. */
  | 'garbage'
  | 'cancelled'

export class RemoteError extends Error {
  constructor(message: string, readonly kind: RemoteErrorKind, readonly status: number | null = null) {
    super(message)
    this.name = 'RemoteError'
  }
}

export interface RemoteClientOptions {
  /** The backend's base URL (http or https), the paths of the spec below it. */
  baseUrl: string
  /** Sent as `Authorization: Bearer …`; never logged or stored. */
  token: string
  /** Request starts per second at most (default 5). */
  rate?: number
  /** Per attempt (default 30 s). */
  timeoutMs?: number
  /** Further attempts after a retryable failure (default 5). */
  retries?: number
  /** First backoff delay (default 500 ms), doubling up to maxBackoffMs (default 30 s). */
  backoffMs?: number
  maxBackoffMs?: number
  signal?: AbortSignal
  /** Told of each attempt, for progress and counts. */
  onAttempt?: (attempt: RemoteAttempt) => void
}

export interface RemoteAttempt {
  path: string
  status: number | null
  retry: number
  /** The wait before the next try, or null when there is none (an answer, or the last failure). */
  waitMs: number | null
  /** When a Retry-After set it: no request of the client starts before this (epoch ms). */
  notBefore?: number
}

/** What a request stopped by the pull's signal throws. */
export const cancelledError = () => new RemoteError('the pull was cancelled', 'cancelled')

/** The base URL as stored with what was pulled: http(s), no query, no trailing slash. */
export function normalizeBaseUrl(text: string): string {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new TypeError(`not a URL: ${JSON.stringify(text)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`the base URL must be http or https, not ${url.protocol}`)
  if (url.username || url.password) throw new TypeError('the base URL must not carry credentials; pass the token on its own')
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`
}

const describe = (status: number, body: string) => {
  const text = body.trim().replace(/\s+/g, ' ')
  return text ? `${status}: ${text.length > 200 ? `${text.slice(0, 200)}…` : text}` : String(status)
}

/**
 * GETs JSON from a backend that speaks the service interface, politely: paced by a rate limit,
 * retried with backoff on failures that may pass (network, timeout, 429, 5xx, honouring
 * Retry-After), failing at once on those that will not (401/403, other 4xx).
 */
export function createRemoteClient(options: RemoteClientOptions) {
  const base = normalizeBaseUrl(options.baseUrl)
  const rate = options.rate ?? 5
  const take = createRateLimiter(rate)
  const retries = options.retries ?? 5
  const backoff = { baseMs: options.backoffMs ?? 500, maxMs: options.maxBackoffMs ?? 30_000 }
  const timeoutMs = options.timeoutMs ?? 30_000
  const signal = options.signal

  const cancelled = cancelledError
  // Set by a Retry-After: no request of this client starts before then (several may be under way).
  let notBefore = 0

  async function attempt(url: string): Promise<{ status: number; body: string; retryAfter: string | null } | { error: string }> {
    const timeout = AbortSignal.timeout(timeoutMs)
    try {
      const response = await fetch(url, {
        headers: { Authorization: `Bearer ${options.token}`, Accept: 'application/json' },
        redirect: 'error',
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
      return { status: response.status, body: await response.text(), retryAfter: response.headers.get('retry-after') }
    } catch (error) {
      if (signal?.aborted) throw cancelled()
      if (timeout.aborted) return { error: `no answer within ${timeoutMs / 1000} s` }
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      return { error: cause?.code ?? cause?.message ?? (error as Error).message }
    }
  }

  return {
    base,
    /** Starts no request before `at` (epoch ms): a Retry-After another client of the same pull was given. */
    holdUntil(at: number): void {
      notBefore = Math.max(notBefore, at)
    },
    /** When this client's next request may start at the soonest (epoch ms): a Retry-After's hold, or 0. */
    heldUntil: (): number => notBefore,
    /** Another client of the same pull has just made its requests: this one's next waits a turn of the rate. */
    followOther(): void {
      notBefore = Math.max(notBefore, Date.now() + 1000 / rate)
    },
    async getJson(path: string, query: Record<string, string | number> = {}): Promise<unknown> {
      const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()
      const url = `${base}${path}${search ? `?${search}` : ''}`
      const label = `GET ${path}${search ? `?${search}` : ''}`
      for (let retry = 0; ; retry++) {
        try {
          const pause = notBefore - Date.now()
          if (pause > 0) await sleep(pause, undefined, { signal })
          await take(signal)
        } catch {
          throw cancelled()
        }
        const result = await attempt(url)
        const status = 'status' in result ? result.status : null
        if ('status' in result && result.status >= 200 && result.status < 300) {
          options.onAttempt?.({ path, status, retry, waitMs: null })
          try {
            return JSON.parse(result.body)
          } catch {
            throw new RemoteError(`${label} answered ${result.status} with a body that is not JSON: ${JSON.stringify(result.body.slice(0, 80))}`, 'garbage', result.status)
          }
        }
        if ('status' in result && !RETRYABLE_STATUSES.has(result.status)) {
          options.onAttempt?.({ path, status, retry, waitMs: null })
          const s = result.status
          if (s === 401 || s === 403) throw new RemoteError(`the remote refused the token (${label} answered ${describe(s, result.body)})`, 'auth', s)
          if (s === 404) throw new RemoteError(`${label} answered ${describe(s, result.body)}`, 'not_found', s)
          throw new RemoteError(`${label} answered ${describe(s, result.body)}`, 'rejected', s)
        }
        const why = 'status' in result ? describe(result.status, result.body) : result.error
        if (retry >= retries) {
          options.onAttempt?.({ path, status, retry, waitMs: null })
          throw new RemoteError(`${label} failed ${retry + 1} times; last: ${why}`, 'unavailable', status)
        }
        const retryAfter = 'status' in result ? parseRetryAfter(result.retryAfter) : null
        const waitMs = backoffDelay(retry, retryAfter, backoff)
        if (retryAfter !== null) notBefore = Math.max(notBefore, Date.now() + waitMs)
        options.onAttempt?.({ path, status, retry, waitMs, ...(retryAfter !== null ? { notBefore } : {}) })
        try {
          await sleep(waitMs, undefined, { signal })
        } catch {
          throw cancelled()
        }
      }
    },
  }
}

export type RemoteClient = ReturnType<typeof createRemoteClient>
