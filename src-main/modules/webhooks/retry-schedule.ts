import { RETRY_JITTER, RETRY_SCHEDULE_MS } from '../../../src-shared/schemas/webhooks'

/*
 * When to try again (docs/api.md, "Retries"): the n-th attempt waits RETRY_SCHEDULE_MS[n-1] after
 * the previous one failed (the first goes at once), each wait moved by up to ±20 % at random so
 * receivers that failed together are not hit together again. Any failure is retried (a non-2xx
 * status, or no answer) except a refusal by the address guard, which would fail the same way.
 */

/** The environment variable that shortens the schedule (tests, demos): waits in ms, comma-separated. */
export const SCHEDULE_ENV = 'CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS'

/** A schedule from its text ("0,50,100"); null when absent or unreadable (the documented one applies). */
export function parseSchedule(text: string | undefined): number[] | null {
  if (!text?.trim()) return null
  const waits = text.split(',').map((s) => Number(s.trim()))
  if (waits.length === 0 || waits.some((n) => !Number.isInteger(n) || n < 0)) return null
  return waits
}

export const defaultSchedule = (): readonly number[] => parseSchedule(process.env[SCHEDULE_ENV]) ?? RETRY_SCHEDULE_MS

/** The wait before attempt `next` (2 for the first retry), jittered; null when the schedule has no such attempt. */
export function retryDelay(schedule: readonly number[], next: number, random = Math.random): number | null {
  const base = schedule[next - 1]
  if (base === undefined) return null
  return Math.round(base * (1 + (random() * 2 - 1) * RETRY_JITTER))
}
