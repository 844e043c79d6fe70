import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Spaces request starts at least 1/rate seconds apart: a steady pace a backend's rate limiter
 * accepts, rather than bursts it answers with 429. Concurrent callers queue in call order.
 */
export function createRateLimiter(requestsPerSecond: number, wait: (ms: number, signal?: AbortSignal) => Promise<unknown> = (ms, signal) => sleep(ms, undefined, { signal })) {
  if (!(requestsPerSecond > 0)) throw new RangeError('the rate must be a positive number of requests per second')
  const interval = 1000 / requestsPerSecond
  let next = 0
  return async function take(signal?: AbortSignal): Promise<void> {
    const now = performance.now()
    const at = Math.max(now, next)
    next = at + interval
    if (at > now) await wait(at - now, signal)
  }
}
