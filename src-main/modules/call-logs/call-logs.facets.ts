import type { Kysely } from 'kysely'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import {
  type CallLogFacets,
  type CallLogFacetsProgress,
  DETAILS_FACET_LINES,
  DETAILS_FACET_TOP,
  DETAILS_KEY,
  DETAILS_KEYS_LINES,
  type DetailsFacet,
  type DetailsValue,
  type DetailsKeys,
  FACET_VALUES_MAX,
  type NamedFacetCount,
} from '../../../src-shared/schemas/call-log-facets'
import type { Database } from '../../db/schema'
import { createTimeSlicer, type TimeSlicer } from '../../lib/time-slicer'
import type { Principal } from '../../kit/access'
import * as countRepo from './call-logs.count-by.repo'
import { comboCountsByDays, mergeCombos } from './call-logs.day-combos'
import * as facetsRepo from './call-logs.facets.repo'
import { isIndexedDetailsPath, keyPath } from './details-values'
import * as repo from './call-logs.search.repo'
import { type ChartSpan, resolveFilter, spanOf, withinBudget } from './call-logs.search'
import { readInWaves, readsOnce, type Slice, waves } from './call-logs.slices'
import { callLogsSql } from './call-logs.sql'
import type { LineCombo } from './call-logs.sql-contract'
import { tooSlowError } from './log-query.slow'

/*
 * The explorer's facets (issue 17 pt 2). Level, type, tenant and agent are counted in SQL over
 * their (column, timestamp) indexes; level and type each leave their own dimension out, as faceted
 * search does. A narrower filter groups the lines it selects, in time slices (call-logs.slices.ts)
 * which the console is shown as they are read, newest first. A details key's values are counted over the newest matching lines only
 * (DETAILS_FACET_LINES), and the answer says how many lines it read; a key with an index of its own
 * (0019) is counted over every line when the filter is a bare time range. On PostgreSQL a bare time
 * range holding a whole UTC day is summed from the day counts instead (call-logs.day-combos.ts).
 */

type Count = { value: string; count: number }

/** SQLite's order of values (NULL, then numbers with true/false as 1/0, then text), as the sample's ORDER BY sorts them. */
function sqliteOrder(a: DetailsValue, b: DetailsValue): number {
  const rank = (v: DetailsValue) => (v === null ? 0 : typeof v === 'string' ? 2 : 1)
  const num = (v: DetailsValue) => (typeof v === 'boolean' ? Number(v) : (v as number))
  if (rank(a) !== rank(b)) return rank(a) - rank(b)
  if (rank(a) === 1) return num(a) - num(b)
  return a === b ? 0 : String(a) < String(b) ? -1 : 1
}

const byCount = (a: Count, b: Count) => b.count - a.count || a.value.localeCompare(b.value)

export function createCallLogFacets(db: Kysely<Database>, budget: number) {
  /**
   * Over a bare time range (the costly case: every line counts) each value is one index range
   * count (a loose index scan finds the values), with the event loop free between them; narrower
   * filters group the few rows they select.
   */
  async function facetCounts(f: repo.ResolvedCallLogFilter, column: repo.FacetColumn, slicer: TimeSlicer): Promise<Count[]> {
    if (!repo.isTimeRangeOnly(f, repo.facetOmits(column))) {
      const counts = await withinBudget(db, f, budget, (g, d) => repo.countBy(d, g, column))
      await slicer.tick()
      return counts.sort(byCount).slice(0, FACET_VALUES_MAX)
    }
    const counts: Count[] = []
    for (const value of await repo.distinctValues(db, column)) {
      await slicer.tick()
      const count = await repo.countValue(db, f, column, value)
      if (count > 0) counts.push({ value, count })
    }
    return counts.sort(byCount).slice(0, FACET_VALUES_MAX)
  }

  /**
   * A narrow filter (a query, a text search, an agent, ids): the lines grouped by all four columns,
   * each facet summed from those groups (level without the level filter, type without the type
   * filter), where four grouped reads would each select the same lines again.
   */
  function fromCombos(f: repo.ResolvedCallLogFilter, combos: readonly LineCombo[]) {
    const sums = { log_level: new Map<string, number>(), log_type: new Map<string, number>(), tenant_id: new Map<string, number>(), agent_id: new Map<string, number>() }
    const add = (column: repo.FacetColumn, value: string | null, n: number) => value !== null && sums[column].set(value, (sums[column].get(value) ?? 0) + n)
    for (const c of combos) {
      const levelOk = !f.levels?.length || f.levels.includes(c.log_level)
      const typeOk = !f.types?.length || f.types.includes(c.log_type)
      if (typeOk) add('log_level', c.log_level, c.count)
      if (levelOk) add('log_type', c.log_type, c.count)
      if (levelOk && typeOk) {
        add('tenant_id', c.tenant_id, c.count)
        add('agent_id', c.agent_id, c.count)
      }
    }
    const list = (column: repo.FacetColumn): Count[] => [...sums[column]].map(([value, count]) => ({ value, count })).sort(byCount).slice(0, FACET_VALUES_MAX)
    return { levels: list('log_level'), types: list('log_type'), tenants: list('tenant_id'), agents: list('agent_id') }
  }

  async function withNames(counts: ReturnType<typeof fromCombos>): Promise<CallLogFacets> {
    return { ...counts, tenants: await named('tenant_rows', counts.tenants), agents: await named('agents', counts.agents) }
  }

  /**
   * The span a narrow filter's lines are read in, in slices (call-logs.slices.ts): its own time
   * range, a missing end taken from the store's first or last line (one index seek each; the
   * filter's own first and last lines could cost a scan each). Null when it holds no time.
   */
  async function sliceSpan(f: repo.ResolvedCallLogFilter): Promise<ChartSpan | null> {
    const store = f.from && f.to ? null : await repo.timeBounds(db, { from: f.from, to: f.to })
    const from = f.from ?? store?.min
    const to = f.to ?? store?.max
    return from && to && from <= to ? spanOf(from, to) : null
  }

  /**
   * The facets as answers. Over a bare time range (levels and types aside) they are index range
   * counts: one answer. Any other filter groups the lines it selects: read once when it has a text
   * term, else in time slices (side by side; newest first when `progressive`, an answer after
   * each wave of them, the last one whole). Each read has the query budget.
   */
  async function* counting(principal: Principal, filter: CallLogFilter, signal: AbortSignal | undefined, progressive: boolean): AsyncGenerator<CallLogFacetsProgress> {
    const whole = (answer: CallLogFacets): CallLogFacetsProgress => ({ answer, scanned: 1, complete: true })
    const f = resolveFilter(principal, filter)
    if (f === 'nothing') return yield whole({ levels: [], types: [], tenants: [], agents: [] })
    const slicer = createTimeSlicer({ signal })
    if (repo.isTimeRangeOnly({ ...f, levels: undefined, types: undefined })) {
      const byDays = await comboCountsByDays(db, f)
      if (byDays) return yield whole(await withNames(fromCombos(f, byDays)))
      const levels = await facetCounts(f, 'log_level', slicer)
      const types = await facetCounts(f, 'log_type', slicer)
      const tenants = await named('tenant_rows', await facetCounts(f, 'tenant_id', slicer))
      const agents = await named('agents', await facetCounts(f, 'agent_id', slicer))
      return yield whole({ levels, types, tenants, agents })
    }
    const span = readsOnce(f) ? null : await sliceSpan(f)
    if (!span) {
      const combos = await withinBudget(db, f, budget, (g, d) => repo.comboCounts(d, g))
      await slicer.tick()
      return yield whole(await withNames(fromCombos(f, combos)))
    }
    const merged = new Map<string, LineCombo>()
    // The budget as withinBudget gives it: to query-language filters (the others are all served by indexes).
    const read = (slice: Slice, deadline: number) =>
      f.query?.where
        ? callLogsSql(db).withBudget(db, budget, (d) => repo.comboCounts(d, { ...f, from: slice.from, to: slice.to, deadline }))
        : repo.comboCounts(db, { ...f, from: slice.from, to: slice.to })
    for await (const wave of readInWaves(waves(f, span, progressive), budget, slicer, read, () => tooSlowError(f.query, budget))) {
      mergeCombos(wave.results.flat(), merged)
      yield { answer: await withNames(fromCombos(f, [...merged.values()])), scanned: wave.scanned, complete: wave.scanned >= 1 }
    }
  }

  async function named(table: 'tenant_rows' | 'agents', counts: Count[]): Promise<NamedFacetCount[]> {
    const names = await facetsRepo.namesOf(db, table, counts.map((c) => c.value))
    return counts.map((c) => ({ ...c, name: names.get(c.value)?.name ?? null, nameShared: names.get(c.value)?.nameShared ?? false }))
  }

  /** An indexed key's values over every line of the range, from its index (the lines' total from the time index). */
  async function indexedFacet(f: repo.ResolvedCallLogFilter, key: string): Promise<DetailsFacet> {
    const range = { from: f.from, to: f.to }
    const [values, linesRead] = await Promise.all([countRepo.indexedValueCounts(db, range, key), countRepo.rangeCount(db, range)])
    const plain = values
      .filter((v) => facetsRepo.PLAIN_TYPES.has(v.type))
      .map((v) => ({ value: facetsRepo.toValue(v.value, v.type), count: v.count }))
      .sort((a, b) => b.count - a.count || sqliteOrder(a.value, b.value))
    return { key, values: plain.slice(0, DETAILS_FACET_TOP), linesRead, linesWithKey: values.reduce((n, v) => n + v.count, 0), sampled: false }
  }

  return {
    /** Counts by level, type, tenant and agent (with names), most first, at most FACET_VALUES_MAX each. */
    async facets(principal: Principal, filter: CallLogFilter, signal?: AbortSignal): Promise<CallLogFacets> {
      let last: CallLogFacets | undefined
      for await (const step of counting(principal, filter, signal, false)) last = step.answer
      return last!
    },

    /**
     * The same counts shown as they go (the console): a filter whose lines are read comes in waves
     * of time slices, newest first, each answer over what was read so far with the share of the
     * range read (`scanned`); the last one is `complete`. Index range counts are one answer.
     */
    facetsProgress(principal: Principal, filter: CallLogFilter, signal?: AbortSignal): AsyncGenerator<CallLogFacetsProgress> {
      return counting(principal, filter, signal, true)
    },

    /** The details keys to pick a facet from: those of the newest DETAILS_KEYS_LINES matching lines. */
    async detailsKeys(principal: Principal, filter: CallLogFilter): Promise<DetailsKeys> {
      const f = resolveFilter(principal, filter)
      if (f === 'nothing') return { keys: [], linesRead: 0 }
      const found = await withinBudget(db, f, budget, (g, d) => facetsRepo.detailsKeys(d, g, DETAILS_KEYS_LINES, FACET_VALUES_MAX))
      // A key the query language cannot name (a space, a dot inside it) could not be filtered on.
      return { keys: found.keys.filter((k) => DETAILS_KEY.test(k.key) && !k.key.includes('.')), linesRead: found.linesRead }
    },

    /**
     * Top values of `details.<key>` in the newest DETAILS_FACET_LINES matching lines; over every
     * line of a bare time range when the key has an index of its own (0019).
     */
    async detailsFacet(principal: Principal, filter: CallLogFilter, key: string): Promise<DetailsFacet> {
      const f = resolveFilter(principal, filter)
      if (f === 'nothing') return { key, values: [], linesRead: 0, linesWithKey: 0, sampled: false }
      if (repo.isTimeRangeOnly(f) && isIndexedDetailsPath(keyPath(key))) return indexedFacet(f, key)
      const found = await withinBudget(db, f, budget, (g, d) => facetsRepo.detailsValues(d, g, key, DETAILS_FACET_LINES, DETAILS_FACET_TOP))
      return { key, ...found, sampled: found.linesRead >= DETAILS_FACET_LINES }
    },
  }
}
