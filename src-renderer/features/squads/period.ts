/** The squad page's period choices, in whole UTC days ending today (today included). */
export const PERIOD_DAYS = [7, 30, 90] as const
export type PeriodDays = (typeof PERIOD_DAYS)[number]
export const DEFAULT_PERIOD_DAYS: PeriodDays = 30

export function parseDays(value: string | null): PeriodDays {
  const n = Number(value)
  return (PERIOD_DAYS as readonly number[]).includes(n) ? (n as PeriodDays) : DEFAULT_PERIOD_DAYS
}

/**
 * The analytics query for "last n days": bare UTC dates, so the query (and its cache key) stays the
 * same all day, and a bare end date includes that whole day.
 */
export function periodQuery(days: PeriodDays, nowMs: number): { start_date: string; end_date: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
  return { start_date: day(nowMs - (days - 1) * 86_400_000), end_date: day(nowMs) }
}
