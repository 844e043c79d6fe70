import type { Kysely } from 'kysely'
import { type CallLogCountBy, COUNT_BY_CELLS_MAX, type CountByField, type CountByGroup } from '../../../src-shared/schemas/call-log-count-by'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import { isBudgetExceeded } from '../../db/query-budget'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { InvalidInputError } from '../../kit/errors'
import { createTimeSlicer, type TimeSlicer } from '../../lib/time-slicer'
import * as countRepo from './call-logs.count-by.repo'
import { namesOf } from './call-logs.facets.repo'
import { type ChartSpan, chartSpan, resolveFilter } from './call-logs.search'
import * as repo from './call-logs.search.repo'
import { countByTooSlowError } from './log-query.slow'

/*
 * Count by (issue 17 pt 4): the explorer's result grouped by a field or a details key and by the
 * histogram's time buckets, the top N groups by lines with the rest summed as "other". Every group
 * is counted before the top N are picked, so the N and the other's sum are exact.
 */

/** The columns the indexed fields are stored in. */
const COLUMN: Record<CountByField, repo.FacetColumn> = { level: 'log_level', type: 'log_type', tenant: 'tenant_id', agent: 'agent_id' }

export const groupingOf = (by: string): countRepo.Grouping =>
  by.startsWith('details.') ? { detailsKey: by.slice('details.'.length) } : { column: COLUMN[by as CountByField] }

/** A grouped read over a bare time range is split into this many time slices, read side by side by the reader threads. */
const SLICES = 4

export class CountByTooManyGroupsError extends InvalidInputError {
  constructor(
    readonly by: string,
    cellsMax: number,
  ) {
    super(
      `${by} has too many different values to count by in this range (more than ${cellsMax.toLocaleString('en-US')} value and time bucket pairs). ` +
        'Count by a field with fewer values (a provider, a model, a status) or narrow the time range.',
    )
    this.name = 'CountByTooManyGroupsError'
  }
}

/** A group's lines: the column's value or the details value's JSON text (null: none), its totals and its lines per bucket. */
interface Tally {
  key: string | null
  count: number
  errors: number
  perBucket: Map<number, number>
}

interface Counted {
  /** Every group with lines, in any order; perBucket filled at least for the top ones. */
  tallies: Tally[]
  /** Lines per bucket, every group together. */
  bucketTotals: Map<number, number>
}

/** Most lines first; ties by value, the group without a value last, so the order is stable. */
const byLines = (a: Tally, b: Tally) => b.count - a.count || (a.key === null ? 1 : b.key === null ? -1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0)

const iso = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString()

/** The span's buckets as time ranges, clipped to the span. */
function bucketRanges(span: ChartSpan): Array<{ start: number } & countRepo.Range> {
  const out: Array<{ start: number } & countRepo.Range> = []
  for (let start = span.firstBucket; start <= span.lastBucket; start += span.size) {
    const lo = iso(start)
    const hi = new Date((start + span.size) * 1000 - 1).toISOString()
    out.push({ start, from: span.from > lo ? span.from : lo, to: span.to < hi ? span.to : hi })
  }
  return out
}

/** The span cut into at most `n` slices of whole buckets, each clipped to the span. */
function slices(span: ChartSpan, n: number): countRepo.Range[] {
  const buckets = bucketRanges(span)
  const per = Math.ceil(buckets.length / n)
  const out: countRepo.Range[] = []
  for (let i = 0; i < buckets.length; i += per) out.push({ from: buckets[i]!.from, to: buckets[Math.min(i + per, buckets.length) - 1]!.to })
  return out
}

/** `cellsMax`: the most (group, bucket) pairs a count may hold (COUNT_BY_CELLS_MAX; tests lower it). */
export function createCallLogCountBy(db: Kysely<Database>, budget: number, cellsMax = COUNT_BY_CELLS_MAX) {
  /**
   * An indexed column over a bare time range: each value's lines are one range count of its index
   * (the values found by a loose index scan), errors one grouped read of the error lines; then, for
   * the top values only, one range count per bucket, and per bucket the total of every line.
   */
  async function byRanges(span: ChartSpan, column: repo.FacetColumn, top: number, slicer: TimeSlicer): Promise<Counted> {
    const range = { from: span.from, to: span.to }
    const values: Array<string | null> = [...(await repo.distinctValues(db, column)), null]
    const errors = await countRepo.errorCounts(db, range, column)
    const tallies: Tally[] = []
    for (const value of values) {
      await slicer.tick()
      const count = await countRepo.rangeCount(db, range, { column, value })
      if (count > 0) tallies.push({ key: value, count, errors: errors.get(value) ?? 0, perBucket: new Map() })
    }
    const bucketTotals = new Map<number, number>()
    const buckets = bucketRanges(span)
    for (const t of [...tallies].sort(byLines).slice(0, top)) {
      for (const b of buckets) {
        await slicer.tick()
        const n = await countRepo.rangeCount(db, b, { column, value: t.key })
        if (n > 0) t.perBucket.set(b.start, n)
      }
    }
    for (const b of buckets) {
      await slicer.tick()
      bucketTotals.set(b.start, await countRepo.rangeCount(db, b))
    }
    return { tallies, bucketTotals }
  }

  /** One grouped read per time slice, under the budget; the slices of a bare filter are read side by side. */
  async function byGroups(f: repo.ResolvedCallLogFilter, by: string, span: ChartSpan, slicer: TimeSlicer): Promise<Counted> {
    const grouping = groupingOf(by)
    // A text search or query in each slice would look its words up again: such filters are read once.
    const parts = !f.match && !f.query?.where ? slices(span, SLICES) : [{ from: span.from, to: span.to }]
    const deadline = Date.now() + budget
    let cells: countRepo.Cell[][]
    try {
      cells = await Promise.all(parts.map((p) => countRepo.cellCounts(db, { ...f, ...p, deadline }, grouping, span.size, cellsMax + 1)))
    } catch (error) {
      if (isBudgetExceeded(error)) throw countByTooSlowError(f.query, by, budget)
      throw error
    }
    await slicer.tick()
    if (cells.reduce((n, c) => n + c.length, 0) > cellsMax) throw new CountByTooManyGroupsError(by, cellsMax)
    const tallies = new Map<string | null, Tally>()
    const bucketTotals = new Map<number, number>()
    for (const c of cells.flat()) {
      let t = tallies.get(c.value)
      if (!t) tallies.set(c.value, (t = { key: c.value, count: 0, errors: 0, perBucket: new Map() }))
      t.count += c.count
      t.errors += c.errors
      t.perBucket.set(c.bucket, (t.perBucket.get(c.bucket) ?? 0) + c.count)
      bucketTotals.set(c.bucket, (bucketTotals.get(c.bucket) ?? 0) + c.count)
    }
    return { tallies: [...tallies.values()], bucketTotals }
  }

  /** A details value's JSON text as the value (an object or array stays its text); a column's value as it is. */
  const valueOf = (by: string, key: string): CountByGroup['value'] => {
    if (!by.startsWith('details.')) return key
    const value = JSON.parse(key) as unknown
    return value !== null && typeof value === 'object' ? key : (value as CountByGroup['value'])
  }

  async function assemble(by: string, top: number, span: ChartSpan, counted: Counted): Promise<CallLogCountBy> {
    const ranked = counted.tallies.filter((t) => t.count > 0).sort(byLines)
    const shown = ranked.slice(0, top)
    const rest = ranked.slice(top)
    const table = by === 'tenant' ? 'tenant_rows' : by === 'agent' ? 'agents' : null
    const names = table ? await namesOf(db, table, shown.flatMap((t) => (t.key === null ? [] : [t.key]))) : new Map()
    const groups: CountByGroup[] = shown.map((t) => ({
      kind: t.key === null ? 'none' : 'value',
      value: t.key === null ? null : valueOf(by, t.key),
      name: (t.key !== null && names.get(t.key)?.name) || null,
      name_shared: (t.key !== null && names.get(t.key)?.nameShared) || false,
      count: t.count,
      errors: t.errors,
    }))
    const sum = (list: Tally[], field: 'count' | 'errors') => list.reduce((n, t) => n + t[field], 0)
    if (rest.length > 0) groups.push({ kind: 'other', value: null, name: null, name_shared: false, count: sum(rest, 'count'), errors: sum(rest, 'errors') })
    const buckets: CallLogCountBy['buckets'] = []
    for (let start = span.firstBucket; start <= span.lastBucket; start += span.size) {
      const counts = shown.map((t) => t.perBucket.get(start) ?? 0)
      if (rest.length > 0) counts.push((counted.bucketTotals.get(start) ?? 0) - counts.reduce((n, c) => n + c, 0))
      buckets.push({ start: iso(start), counts })
    }
    return { by, top, bucket_seconds: span.size, from: span.from, to: span.to, total: sum(ranked, 'count'), errors: sum(ranked, 'errors'), groups, buckets }
  }

  return {
    /**
     * The filtered lines counted by `by` (level, type, tenant, agent, details.<key>) per time bucket:
     * the top `top` groups (lines without a value as one "none" group among them), the rest as "other".
     */
    async countBy(principal: Principal, filter: CallLogFilter, by: string, top: number, signal?: AbortSignal): Promise<CallLogCountBy> {
      const now = new Date()
      const empty: CallLogCountBy = { by, top, bucket_seconds: 3600, from: null, to: null, total: 0, errors: 0, groups: [], buckets: [] }
      const f = resolveFilter(principal, filter, now)
      if (f === 'nothing') return empty
      const span = await chartSpan(db, f, filter, now, budget)
      if (!span) return empty
      const slicer = createTimeSlicer({ signal })
      const grouping = groupingOf(by)
      const counted = 'column' in grouping && repo.isTimeRangeOnly(f) ? await byRanges(span, grouping.column, top, slicer) : await byGroups(f, by, span, slicer)
      return assemble(by, top, span, counted)
    },
  }
}
