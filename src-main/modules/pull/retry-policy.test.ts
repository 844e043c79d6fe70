import { describe, expect, it } from 'vitest'
import { createRateLimiter } from './rate-limiter'
import { backoffDelay, parseRetryAfter } from './retry-policy'

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T10:00:00Z')
  it('reads seconds and HTTP dates, and ignores what it cannot read', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:05 GMT', now)).toBe(5000)
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
  })
})

describe('backoffDelay', () => {
  const options = { baseMs: 500, maxMs: 30_000 }
  it('doubles per retry, jittered within the upper half, capped', () => {
    expect(backoffDelay(0, null, options, () => 0)).toBe(250)
    expect(backoffDelay(0, null, options, () => 1)).toBe(500)
    expect(backoffDelay(3, null, options, () => 0.5)).toBe(3000)
    expect(backoffDelay(20, null, options, () => 1)).toBe(30_000)
  })
  it('waits at least as long as the server asks, up to the cap', () => {
    expect(backoffDelay(0, 4000, options, () => 0)).toBe(4000)
    expect(backoffDelay(0, 600_000, options, () => 0)).toBe(30_000)
  })
})

describe('createRateLimiter', () => {
  it('spaces starts 1/rate apart, in call order', async () => {
    const waits: number[] = []
    const take = createRateLimiter(4, async (ms) => void waits.push(Math.round(ms)))
    await Promise.all([take(), take(), take()])
    expect(waits.length).toBe(2)
    expect(waits[0]).toBeGreaterThanOrEqual(245)
    expect(waits[1]).toBeGreaterThanOrEqual(495)
    expect(() => createRateLimiter(0)).toThrow(RangeError)
  })
})
