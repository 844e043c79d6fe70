import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import * as repo from './call-logs.search.repo'
import { callLogsSql } from './call-logs.sql'
import type { DaySpan, LineCombo } from './call-logs.sql-contract'

/*
 * Counts over a bare time range from the store's day counts (PostgreSQL's call_log_day_counts,
 * pg-migrations/0004): the whole UTC days inside the range are summed from that table, the parts
 * of days at its two ends are grouped from call_logs itself. At ten million lines the range "All"
 * is then a sum over about 200,000 rows instead of a visit to every line.
 */

const DAY_MS = 86_400_000

/** A time range cut into the whole UTC days it holds and the parts of days at its ends (instants, both ends included). */
export interface DaySplit {
  days: DaySpan
  edges: Array<{ from: string; to: string }>
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const instant = (ms: number) => new Date(ms).toISOString()

/**
 * Splits [from, to] (ISO instants, inclusive, at millisecond precision as the stores keep them;
 * either end open) into whole days and edges; null when it holds no whole day (the caller reads
 * the lines then).
 */
export function splitDays(from?: string, to?: string): DaySplit | null {
  const edges: DaySplit['edges'] = []
  let first: number | undefined
  let last: number | undefined
  if (from) {
    const start = Date.parse(from)
    first = Math.ceil(start / DAY_MS) * DAY_MS
    if (start < first) edges.push({ from: instant(start), to: instant(first - 1) })
  }
  if (to) {
    const end = Date.parse(to)
    // The day after the last whole one starts here; a range ending at 23:59:59.999 ends on a whole day.
    const after = Math.floor((end + 1) / DAY_MS) * DAY_MS
    last = after - DAY_MS
    if (after <= end) edges.push({ from: instant(after), to: instant(end) })
  }
  if (first !== undefined && last !== undefined && first > last) return null
  return { days: { first: first === undefined ? undefined : dayOf(first), last: last === undefined ? undefined : dayOf(last) }, edges }
}

/** Adds combos with the same (level, type, tenant, agent) together. */
export function mergeCombos(parts: Iterable<LineCombo>, into = new Map<string, LineCombo>()): Map<string, LineCombo> {
  for (const c of parts) {
    const key = JSON.stringify([c.log_level, c.log_type, c.tenant_id, c.agent_id])
    const seen = into.get(key)
    if (seen) seen.count += c.count
    else into.set(key, { ...c })
  }
  return into
}

/**
 * Lines per (level, type, tenant, agent) in the range [from, to], from the day counts and the two
 * edges read side by side; null when the store keeps no day counts or the range holds no whole day.
 */
export async function comboCountsByDays(db: Kysely<Database>, range: { from?: string; to?: string }): Promise<LineCombo[] | null> {
  const dayCombos = callLogsSql(db).dayCombos
  const split = dayCombos && splitDays(range.from, range.to)
  if (!dayCombos || !split) return null
  const parts = await Promise.all([dayCombos(db, split.days), ...split.edges.map((edge) => repo.comboCounts(db, edge))])
  return [...mergeCombos(parts.flat()).values()]
}

/**
 * The histogram's counts per (bucket start in epoch seconds, level) over [from, to] for a filter of
 * time and levels alone, from the day counts and the edges' lines; null when the store keeps no day
 * counts, the buckets are not whole days (a chart of hours reads the lines) or no day is whole.
 */
export async function levelBucketsByDays(
  db: Kysely<Database>,
  range: { from: string; to: string; levels?: string[] },
  bucketSeconds: number,
): Promise<Array<{ bucket: number; level: string; count: number }> | null> {
  const dayLevels = callLogsSql(db).dayLevels
  const split = dayLevels && bucketSeconds % 86_400 === 0 ? splitDays(range.from, range.to) : null
  if (!dayLevels || !split) return null
  const bucketOf = (ms: number) => Math.floor(ms / 1000 / bucketSeconds) * bucketSeconds
  const [days, ...edges] = await Promise.all([
    dayLevels(db, split.days, range.levels),
    ...split.edges.map((edge) => repo.bucketCounts(db, { ...edge, levels: range.levels }, bucketSeconds)),
  ])
  const sums = new Map<string, { bucket: number; level: string; count: number }>()
  const add = (bucket: number, level: string, count: number) => {
    const key = `${bucket} ${level}`
    const seen = sums.get(key)
    if (seen) seen.count += count
    else sums.set(key, { bucket, level, count })
  }
  for (const d of days!) add(bucketOf(Date.parse(`${d.day}T00:00:00.000Z`)), d.level, d.count)
  for (const c of edges.flat()) add(c.bucket, c.level, c.count)
  return [...sums.values()]
}
