import type { Kysely } from 'kysely'
import { type CallLogCountBy, type CallLogCountByProgress, COUNT_BY_CELLS_MAX, type CountByField, type CountByGroup } from '../../../src-shared/schemas/call-log-count-by'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { InvalidInputError } from '../../kit/errors'
import { createTimeSlicer, type TimeSlicer } from '../../lib/time-slicer'
import * as countRepo from './call-logs.count-by.repo'
import { callLogsSql } from './call-logs.sql'
import { namesOf } from './call-logs.facets.repo'
import { type ChartSpan, chartSpan, resolveFilter } from './call-logs.search'
import { bucketRanges, readInWaves, type Slice, waves } from './call-logs.slices'
import * as repo from './call-logs.search.repo'
import { detailsJsonText, isIndexedDetailsPath, keyPath } from './details-values'
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

/** Text groups fold as NOCASE does (ASCII letters), so one group read in two slices is one tally. */
const foldKey = (key: string | null): string | null => (key !== null && key.startsWith('"') ? key.replace(/[A-Z]/g, (c) => c.toLowerCase()) : key)

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
  /** An indexed details value as the index holds it, to count its buckets by. */
  source?: countRepo.IndexedValue
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
    const buckets = bucketRanges(span)
    for (const t of [...tallies].sort(byLines).slice(0, top)) {
      for (const b of buckets) {
        await slicer.tick()
        const n = await countRepo.rangeCount(db, b, { column, value: t.key })
        if (n > 0) t.perBucket.set(b.start, n)
      }
    }
    return { tallies, bucketTotals: await totalsPerBucket(span, slicer) }
  }

  /**
   * An indexed details key (migration 0019) over a bare time range: each value's lines from the
   * key's index in one ordered pass; per bucket, the top values' lines and all lines with the key,
   * each a grouped read of that index alone; lines without the key are the rest of each bucket.
   */
  async function byDetailsIndex(span: ChartSpan, key: string, top: number, slicer: TimeSlicer): Promise<Counted> {
    const range = { from: span.from, to: span.to }
    const values = await countRepo.indexedValueCounts(db, range, key)
    await slicer.tick()
    if (values.length * bucketRanges(span).length > cellsMax) throw new CountByTooManyGroupsError(`details.${key}`, cellsMax)
    const [errors, withKey, bucketTotals] = await Promise.all([
      countRepo.errorCountsByDetails(db, range, key),
      countRepo.indexedBucketCounts(db, range, key, span.size),
      totalsPerBucket(span, slicer),
    ])
    const errorsOf = new Map([...errors].map(([k, n]) => [foldKey(k), n]))
    const all = [...bucketTotals.values()].reduce((n, c) => n + c, 0)
    const keyed = values.reduce((n, v) => n + v.count, 0)
    const tallies: Tally[] = values.map((v) => {
      const k = detailsJsonText(v.type, v.value)
      return { key: k, count: v.count, errors: errorsOf.get(foldKey(k)) ?? 0, perBucket: new Map<number, number>(), source: v }
    })
    const none: Tally = { key: null, count: all - keyed, errors: errorsOf.get(null) ?? 0, perBucket: new Map() }
    for (const [bucket, total] of bucketTotals) none.perBucket.set(bucket, total - (withKey.get(bucket) ?? 0))
    const shown = [...tallies, none].sort(byLines).slice(0, top).filter((t) => t.key !== null)
    const perValue = await Promise.all(shown.map((t) => countRepo.indexedBucketCounts(db, range, key, span.size, t.source!.stored)))
    shown.forEach((t, i) => (t.perBucket = perValue[i]!))
    return { tallies: [...tallies, none], bucketTotals }
  }

  /** Lines per bucket, every group together: one range count of the time index per bucket. */
  async function totalsPerBucket(span: ChartSpan, slicer: TimeSlicer): Promise<Map<number, number>> {
    const totals = new Map<number, number>()
    for (const b of bucketRanges(span)) {
      await slicer.tick()
      totals.set(b.start, await countRepo.rangeCount(db, b))
    }
    return totals
  }

  /**
   * Grouped reads of the lines the filter selects, by (bucket, group), in waves of time slices read
   * side by side; each wave under the budget. Yields the tallies so far after each wave, with the
   * share of the span's buckets read.
   */
  async function* byGroups(f: repo.ResolvedCallLogFilter, by: string, span: ChartSpan, slicer: TimeSlicer, progressive: boolean): AsyncGenerator<{ counted: Counted; scanned: number }> {
    const grouping = groupingOf(by)
    const tallies = new Map<string | null, Tally>()
    const bucketTotals = new Map<number, number>()
    let cellsRead = 0
    const read = (slice: Slice, deadline: number) =>
      callLogsSql(db).withBudget(db, budget, (d) => countRepo.cellCounts(d, { ...f, from: slice.from, to: slice.to, deadline }, grouping, span.size, cellsMax + 1))
    for await (const wave of readInWaves(waves(f, span, progressive), budget, slicer, read, () => countByTooSlowError(f.query, by, budget))) {
      cellsRead += wave.results.reduce((n, c) => n + c.length, 0)
      if (cellsRead > cellsMax) throw new CountByTooManyGroupsError(by, cellsMax)
      for (const c of wave.results.flat()) {
        const folded = foldKey(c.value)
        let t = tallies.get(folded)
        if (!t) tallies.set(folded, (t = { key: c.value, count: 0, errors: 0, perBucket: new Map() }))
        t.count += c.count
        t.errors += c.errors
        t.perBucket.set(c.bucket, (t.perBucket.get(c.bucket) ?? 0) + c.count)
        bucketTotals.set(c.bucket, (bucketTotals.get(c.bucket) ?? 0) + c.count)
      }
      yield { counted: { tallies: [...tallies.values()], bucketTotals }, scanned: wave.scanned }
    }
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

  /**
   * The count, as answers: one when it is read at once, else one after each wave of time slices,
   * newest first (`progressive`), the last one complete.
   */
  async function* counting(principal: Principal, filter: CallLogFilter, by: string, top: number, signal: AbortSignal | undefined, progressive: boolean): AsyncGenerator<CallLogCountByProgress> {
    const now = new Date()
    const empty: CallLogCountBy = { by, top, bucket_seconds: 3600, from: null, to: null, total: 0, errors: 0, groups: [], buckets: [] }
    const f = resolveFilter(principal, filter, now)
    const span = f === 'nothing' ? null : await chartSpan(db, f, filter, now, budget)
    if (f === 'nothing' || !span) return yield { answer: empty, scanned: 1, complete: true }
    const slicer = createTimeSlicer({ signal })
    const grouping = groupingOf(by)
    if (repo.isTimeRangeOnly(f) && 'column' in grouping) {
      return yield { answer: await assemble(by, top, span, await byRanges(span, grouping.column, top, slicer)), scanned: 1, complete: true }
    }
    if (repo.isTimeRangeOnly(f) && 'detailsKey' in grouping && isIndexedDetailsPath(keyPath(grouping.detailsKey))) {
      return yield { answer: await assemble(by, top, span, await byDetailsIndex(span, grouping.detailsKey, top, slicer)), scanned: 1, complete: true }
    }
    for await (const part of byGroups(f, by, span, slicer, progressive)) {
      yield { answer: await assemble(by, top, span, part.counted), scanned: part.scanned, complete: part.scanned >= 1 }
    }
  }

  return {
    /**
     * The filtered lines counted by `by` (level, type, tenant, agent, details.<key>) per time bucket:
     * the top `top` groups (lines without a value as one "none" group among them), the rest as "other".
     */
    async countBy(principal: Principal, filter: CallLogFilter, by: string, top: number, signal?: AbortSignal): Promise<CallLogCountBy> {
      let last: CallLogCountBy | undefined
      for await (const part of counting(principal, filter, by, top, signal, false)) last = part.answer
      return last!
    },

    /**
     * The same count shown as it goes (the console): a count that reads the lines themselves comes
     * in waves of time slices, newest first, each answer over what was read so far with the share
     * of the range read (`scanned`); the last one is `complete`. Each wave has the query budget.
     */
    countByProgress(principal: Principal, filter: CallLogFilter, by: string, top: number, signal?: AbortSignal): AsyncGenerator<CallLogCountByProgress> {
      return counting(principal, filter, by, top, signal, true)
    },
  }
}
