/** When a failed request is worth another try, and how long to wait before it. */

/** Statuses that say "not now" rather than "no": rate limited, or the server or a proxy failing. */
export const RETRYABLE_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504])

export interface BackoffOptions {
  /** Delay before the first retry; each further retry doubles it. */
  baseMs: number
  /** No wait is longer than this, whatever the server asks. */
  maxMs: number
}

/**
 * Seconds (`Retry-After: 3`) or an HTTP date, as milliseconds from `now`; null when absent or
 * unreadable. A date in the past means "now" (0).
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (header === null) return null
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

/**
 * Exponential backoff with "equal jitter" (half fixed, half random), so clients that failed
 * together do not come back together; a server's Retry-After wins when it asks for longer.
 * `retry` counts from 0.
 */
export function backoffDelay(retry: number, retryAfterMs: number | null, options: BackoffOptions, random = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** retry)
  const jittered = ceiling / 2 + random() * (ceiling / 2)
  return Math.round(Math.min(options.maxMs, Math.max(jittered, retryAfterMs ?? 0)))
}
