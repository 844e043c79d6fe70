import type { Kysely } from 'kysely'
import { LOG_LEVELS, type LogLevel } from '../../../src-shared/constants'
import type { CallLog } from '../../../src-shared/schemas/call-log'
import type { CallLogCursor, CallLogFilter, ContextSame, ContextScope } from '../../../src-shared/schemas/call-log-search'
import type { CallLogRow, Database } from '../../db/schema'
import { createTimeSlicer, type TimeSlicer } from '../../lib/time-slicer'
import { NotFoundError } from '../../kit/errors'
import { findOrigin, type Origin } from '../origins/origins.repo'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import { toCallLog } from './call-log-row'
import * as repo from './call-logs.search.repo'
import { callLogsSql } from './call-logs.sql'
import { searchTerms } from './fts-query'
import { compileLogQuery } from './log-query'
import { mergeRanges, positiveTextTerms, substringRanges, wordRanges } from './log-query.highlight'
import { QUERY_BUDGET_MS, tooSlowError } from './log-query.slow'
import { isBudgetExceeded } from '../../db/query-budget'
import { isRelativeBound, resolveTimeBound } from '../../../src-shared/time-range'
import { levelBucketsByDays } from './call-logs.day-combos'

/** A row of the console's call log table: the API record plus its keyset position. */
export type CallLogLine = CallLog & {
  seq: number
  /** [start, end) UTF-16 ranges of `message` that matched `q`; present when searching. */
  highlights?: Array<[number, number]>
}

export interface CallLogPage {
  rows: CallLogLine[]
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: CallLogCursor | null
}

export type HistogramBucket = { start: string } & Record<LogLevel, number>

export interface CallLogHistogram {
  bucketSeconds: number
  buckets: HistogramBucket[]
  /** The span charted (relative bounds resolved): what the console zooms out from. Absent when empty. */
  from?: string
  to?: string
}

export interface CallLogContext {
  anchor: CallLogLine
  /** What the neighbours share with the anchor: its call, its trace, or nearness in time alone. */
  pivot: ContextScope
  /** In time: only lines of the anchor's tenant or agent (null: every line the caller may see). */
  same: ContextSame | null
  before: CallLogLine[]
  after: CallLogLine[]
  /** The import or pull that brought the anchor in; null for seeded and local records. */
  origin: Origin | null
  /** The anchor's level as its source spelled it (`WARN`, `40`), when not its log_level. */
  levelAsSent: string | null
}

export interface ContextOptions {
  scope?: ContextScope
  same?: ContextSame | null
}

/** The scope asked for if the anchor has what it needs, else its call, else its trace, else time. */
function contextScope(anchor: CallLogRow, asked: ContextScope | undefined): ContextScope {
  if (asked === 'time' || (asked === 'call' && anchor.call_id) || (asked === 'trace' && anchor.trace_id)) return asked
  return anchor.call_id ? 'call' : anchor.trace_id ? 'trace' : 'time'
}

/** The column the neighbours share with the anchor, or null for every line (in time). */
function contextColumn(scope: ContextScope, same: ContextSame | null, anchor: CallLogRow): repo.NeighbourColumn | null {
  if (scope === 'call') return 'call_id'
  if (scope === 'trace') return 'trace_id'
  if (same === 'agent' && anchor.agent_id) return 'agent_id'
  return same === 'tenant' ? 'tenant_id' : null
}

/** Bucket sizes the histogram picks from, smallest first (seconds). */
export const BUCKET_SIZES = [60, 300, 900, 1800, 3600, 3 * 3600, 6 * 3600, 12 * 3600, 86_400, 7 * 86_400] as const
export const MAX_BUCKETS = 120

/** The smallest bucket that covers [from, to] in at most MAX_BUCKETS buckets. */
export function pickBucketSeconds(fromMs: number, toMs: number): number {
  const span = Math.max(0, toMs - fromMs) / 1000
  for (const size of BUCKET_SIZES) {
    const first = Math.floor(fromMs / 1000 / size)
    const last = Math.floor(toMs / 1000 / size)
    if (last - first + 1 <= MAX_BUCKETS && span / size <= MAX_BUCKETS) return size
  }
  return BUCKET_SIZES.at(-1) ?? 7 * 86_400
}

/**
 * Validation happened in zod; this scopes to the principal's tenant, resolves relative bounds
 * (`from=now-15m`), reads `q` as search terms and compiles `query` (its time range intersected with
 * from/to). `now` anchors relative bounds and `@last`: the one place they become instants, for the
 * explorer, the histogram, facets, live tail and both exports.
 */
export function resolveFilter(principal: Principal, filter: CallLogFilter, now = new Date()): repo.ResolvedCallLogFilter | 'nothing' {
  const { q, query, tenantId, from, to, ...rest } = filter
  const resolved: repo.ResolvedCallLogFilter = { ...rest, tenantId: tenantScope(principal) ?? tenantId }
  const source = sourceScope(principal)
  if (source !== undefined) resolved.source = source
  if (from) resolved.from = resolveTimeBound(from, now)
  if (to) resolved.to = resolveTimeBound(to, now)
  // An instant against a relative bound can only be compared now.
  if (resolved.from && resolved.to && resolved.from > resolved.to) return 'nothing'
  if (q?.trim()) {
    const terms = searchTerms(q)
    // Only punctuation: nothing the index could find.
    if (terms === null) return 'nothing'
    resolved.match = terms
  }
  if (query?.trim()) {
    const compiled = compileLogQuery(query, now)
    if (compiled.from && (!resolved.from || compiled.from > resolved.from)) resolved.from = compiled.from
    if (compiled.to && (!resolved.to || compiled.to < resolved.to)) resolved.to = compiled.to
    if (resolved.from && resolved.to && resolved.from > resolved.to) return 'nothing'
    resolved.query = compiled
  }
  return resolved
}

const line = (row: CallLogRow): CallLogLine => ({ ...toCallLog(row), seq: row.seq })

/** Marks of `q` (the store's own: call-logs.sql.ts highlights) and of the query's text terms (log-query.highlight.ts), merged. */
async function markMatches(db: Kysely<Database>, f: repo.ResolvedCallLogFilter, page: CallLogLine[]): Promise<void> {
  const terms = positiveTextTerms(f.query?.where)
  if (!f.match && terms.length === 0) return
  const marked = f.match && page.length > 0 ? await repo.highlights(db, f.match, page) : new Map<number, Array<[number, number]>>()
  for (const r of page) {
    r.highlights = mergeRanges([...(marked.get(r.seq) ?? []), ...substringRanges(r.message, terms), ...wordRanges(r.message, terms)])
  }
}

/** Rows as console lines, with the ranges of each message that matched `q` or the query's text. */
export async function toLines(db: Kysely<Database>, f: repo.ResolvedCallLogFilter, rows: CallLogRow[]): Promise<CallLogLine[]> {
  const lines = rows.map(line)
  await markMatches(db, f, lines)
  return lines
}

export interface CallLogSearchOptions {
  /** How long one read of a query-language filter may run before it is stopped (log-query.slow.ts). */
  queryBudgetMs?: number
}

/** The budget from CALLSCOPE_QUERY_BUDGET_MS (tests force a stop with 0), else QUERY_BUDGET_MS. */
export function defaultQueryBudget(): number {
  const fromEnv = Number(process.env.CALLSCOPE_QUERY_BUDGET_MS)
  return process.env.CALLSCOPE_QUERY_BUDGET_MS && Number.isFinite(fromEnv) && fromEnv >= 0 ? fromEnv : QUERY_BUDGET_MS
}

/**
 * Runs one read of a filter under the query budget when the filter has a query-language condition
 * (the other filters are all served by indexes and keep their SQL as before); a read stopped at
 * the deadline becomes an error naming the slow part of the query.
 */
export async function withinBudget<T>(
  db: Kysely<Database>,
  f: repo.ResolvedCallLogFilter,
  budgetMs: number,
  read: (f: repo.ResolvedCallLogFilter, db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (!f.query?.where) return read(f, db)
  try {
    return await callLogsSql(db).withBudget(db, budgetMs, (connection) => read({ ...f, deadline: Date.now() + budgetMs }, connection))
  } catch (error) {
    if (isBudgetExceeded(error)) throw tooSlowError(f.query, budgetMs)
    throw error
  }
}

export interface ChartSpan {
  from: string
  to: string
  /** The bucket size (seconds) and the starts of the first and last buckets (epoch seconds). */
  size: number
  firstBucket: number
  lastBucket: number
}

/**
 * The span a chart over time covers and its buckets: the filter's range, with a missing bound taken
 * from the first or last matching line; "the last 15 minutes" runs up to now, not up to its last
 * line. Null when nothing matches. The histogram and count-by chart the same buckets.
 */
export async function chartSpan(db: Kysely<Database>, f: repo.ResolvedCallLogFilter, filter: CallLogFilter, now: Date, budgetMs: number): Promise<ChartSpan | null> {
  let from = f.from
  let to = f.to ?? (isRelativeBound(filter.from) ? now.toISOString() : undefined)
  if (!from || !to) {
    const bounds = await withinBudget(db, f, budgetMs, (g, d) => repo.timeBounds(d, g))
    from ??= bounds.min ?? undefined
    to ??= bounds.max ?? undefined
  }
  if (!from || !to) return null
  return spanOf(from, to)
}

/** The histogram's buckets over `from`–`to` (ISO 8601, both ends included). */
export function spanOf(from: string, to: string): ChartSpan {
  const fromMs = Date.parse(from)
  const toMs = Date.parse(to)
  const size = pickBucketSeconds(fromMs, toMs)
  return { from, to, size, firstBucket: Math.floor(fromMs / 1000 / size) * size, lastBucket: Math.floor(toMs / 1000 / size) * size }
}

export function createCallLogSearch(db: Kysely<Database>, options: CallLogSearchOptions = {}) {
  const budget = options.queryBudgetMs ?? defaultQueryBudget()

  /**
   * Lines per (bucket, level): a filter of time and levels alone from the day counts when the store
   * keeps them and the buckets are days, else by one index range count per (level, bucket); any
   * other filter groups the lines it selects.
   */
  async function histogramCounts(f: repo.ResolvedCallLogFilter, span: ChartSpan, signal?: AbortSignal) {
    const { from, to, size, firstBucket, lastBucket } = span
    if (!repo.rangeCountable(f)) return withinBudget(db, f, budget, (g, d) => repo.bucketCounts(d, g, size))
    const byDays = await levelBucketsByDays(db, { from, to, levels: f.levels }, size)
    return byDays ?? repo.bucketCountsByRange(db, { ...f, from, to }, size, firstBucket, lastBucket, createTimeSlicer({ signal }))
  }

  return {
    /** One page, newest first, after `cursor` (keyset: no offsets, no overlap, no gaps). */
    async search(principal: Principal, filter: CallLogFilter, cursor: CallLogCursor | null | undefined, limit: number): Promise<CallLogPage> {
      const f = resolveFilter(principal, filter)
      if (f === 'nothing') return { rows: [], nextCursor: null }
      const rows = await withinBudget(db, f, budget, (g, d) => repo.searchPage(d, g, cursor, limit + 1))
      const more = rows.length > limit
      const page = await toLines(db, f, more ? rows.slice(0, limit) : rows)
      const last = page[page.length - 1]
      return { rows: page, nextCursor: more && last ? { timestamp: last.timestamp, seq: last.seq } : null }
    },

    /** Volume over time split by level; the bucket size follows the range (at most 120 buckets). */
    async histogram(principal: Principal, filter: CallLogFilter, signal?: AbortSignal): Promise<CallLogHistogram> {
      const now = new Date()
      const f = resolveFilter(principal, filter, now)
      if (f === 'nothing') return { bucketSeconds: 3600, buckets: [] }
      const span = await chartSpan(db, f, filter, now, budget)
      if (!span) return { bucketSeconds: 3600, buckets: [] }
      const { from, to, size, firstBucket, lastBucket } = span
      const counts = await histogramCounts(f, span, signal)
      const byStart = new Map<number, HistogramBucket>()
      for (let s = firstBucket; s <= lastBucket; s += size) {
        const bucket = { start: new Date(s * 1000).toISOString() } as HistogramBucket
        for (const level of LOG_LEVELS) bucket[level] = 0
        byStart.set(s, bucket)
      }
      for (const c of counts) {
        const bucket = byStart.get(c.bucket)
        if (bucket && (LOG_LEVELS as readonly string[]).includes(c.level)) bucket[c.level as LogLevel] += c.count
      }
      return { bucketSeconds: size, buckets: [...byStart.values()], from, to }
    },

    /**
     * The lines around a record: of the same call, else the same trace, else every line near it in
     * time (optionally of its tenant or agent); `scope` asks for one. Another tenant's record is
     * "not found", and a tenant token's neighbours are its tenant's lines only.
     */
    async context(principal: Principal, id: string, before: number, after: number, options: ContextOptions = {}): Promise<CallLogContext> {
      const anchor = await repo.findById(db, id)
      if (!anchor || !canSeeTenant(principal, anchor.tenant_id)) {
        throw new NotFoundError('Call log record')
      }
      const pivot = contextScope(anchor, options.scope)
      const column = contextColumn(pivot, pivot === 'time' ? (options.same ?? null) : null, anchor)
      const same = column === 'tenant_id' ? 'tenant' : column === 'agent_id' ? 'agent' : null
      const around = await repo.neighbours(db, column, anchor, before, after, tenantScope(principal))
      return {
        anchor: line(anchor),
        pivot,
        same,
        before: around.before.map(line),
        after: around.after.map(line),
        origin: await findOrigin(db, anchor),
        levelAsSent: anchor.log_level_original,
      }
    },
  }
}
