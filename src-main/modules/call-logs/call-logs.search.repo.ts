import { LOG_LEVELS } from '../../../src-shared/constants'
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely'
import type { CallLogCursor } from '../../../src-shared/schemas/call-log-search'
import type { JsonReads } from '../../db/json-reads'
import { budgetTerm } from '../../db/query-budget'
import type { CallLogRow, Database } from '../../db/schema'
import type { TimeSlicer } from '../../lib/time-slicer'
import { callLogsSql, type SeqWindow } from './call-logs.sql'
import type { SearchTerm } from './fts-query'
import { hasIndexedDetailsTerm, type LogQueryFilter, logQueryCondition } from './log-query'

/**
 * The console's call log filter after validation and tenant scoping, with `q` already read as
 * search terms (fts-query.ts). Every field is served by an index: timestamp, (agent_id,
 * timestamp), (tenant_id, timestamp), (log_level, timestamp), (log_type, timestamp), call_id,
 * trace_id, session_id (0003) and the word index for `match` (FTS5 on SQLite, the tsvector's GIN
 * index on PostgreSQL).
 */
export interface ResolvedCallLogFilter {
  from?: string
  to?: string
  agentId?: string
  tenantId?: string
  levels?: string[]
  types?: string[]
  /** The `q` search's terms, every one to match (fts-query.ts searchTerms). */
  match?: SearchTerm[]
  callId?: string
  traceId?: string
  sessionId?: string
  /** The query language's condition (log-query.ts), its time already merged into from/to. */
  query?: LogQueryFilter
  /** Epoch ms after which the read stops (db/query-budget.ts); set per read for query-language filters. */
  deadline?: number
  /** Only lines stored in this seq range, text matches looked up in it alone (the live tail's window). */
  seqWindow?: SeqWindow
  /** Only lines of this source ('' Callscope's own, else a pulled backend's base URL; migration 0018). */
  source?: string
}

type CallLogQuery<O> = SelectQueryBuilder<Database, 'call_logs', O>

/** Adds the filter's conditions, as the store `db` runs on spells them; `omit` leaves one dimension out (facet counts). */
export function applyFilter<O>(db: Kysely<Database>, query: CallLogQuery<O>, f: ResolvedCallLogFilter, omit?: 'levels' | 'types'): CallLogQuery<O> {
  const s = callLogsSql(db)
  let q = query
  // First, so that it runs on every row the read visits, whatever else filters it out.
  if (f.deadline !== undefined) q = q.where(budgetTerm(f.deadline))
  if (f.from) q = q.where('timestamp', '>=', f.from)
  if (f.to) q = q.where('timestamp', '<=', f.to)
  if (f.agentId) q = q.where('agent_id', '=', f.agentId)
  if (f.tenantId) q = q.where('tenant_id', '=', f.tenantId)
  if (omit !== 'levels' && f.levels?.length) q = q.where('log_level', 'in', f.levels)
  if (omit !== 'types' && f.types?.length) q = q.where('log_type', 'in', f.types)
  if (f.callId) q = q.where('call_id', '=', f.callId)
  if (f.traceId) q = q.where('trace_id', '=', f.traceId)
  if (f.sessionId) q = q.where('session_id', '=', f.sessionId)
  if (f.source !== undefined) q = q.where('source', '=', f.source)
  if (f.seqWindow) q = q.where('seq', '>', f.seqWindow.after).where('seq', '<=', f.seqWindow.upTo)
  const match = f.match
  if (match?.length) q = q.where(() => s.searchCondition(match, f.seqWindow))
  const where = f.query?.where
  if (where) q = q.where((eb) => logQueryCondition(eb, s, where, f.seqWindow))
  return q
}

/** Newest first, after the cursor: the rows of one page and of each chunk of an export, nothing selected yet. */
export function pageQuery(db: Kysely<Database>, f: ResolvedCallLogFilter, cursor: CallLogCursor | null | undefined, limit: number) {
  let q = applyFilter(db, db.selectFrom('call_logs'), f)
  if (cursor) q = q.where((eb) => eb(eb.refTuple('timestamp', 'seq'), '<', eb.tuple(cursor.timestamp, cursor.seq)))
  const page = q.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(limit)
  if (!f.query?.where || !hasIndexedDetailsTerm(f.query.where)) return page
  // A details index (0019) gives its matches in (type, value) order, so SQLite sorts them by time:
  // sorting only their (timestamp, seq), which the index holds, then reading the page's rows costs a
  // third of sorting whole rows when many lines match (details.provider:*: 400,000 lines).
  return db
    .selectFrom('call_logs')
    .where('seq', 'in', page.select('seq'))
    .orderBy('timestamp', 'desc')
    .orderBy('seq', 'desc')
}

export function searchPage(db: Kysely<Database>, f: ResolvedCallLogFilter, cursor: CallLogCursor | null | undefined, limit: number): Promise<CallLogRow[]> {
  return pageQuery(db, f, cursor, limit).selectAll().execute()
}

/** The same page as export lines (NDJSON records or CSV lines, built by the query), with the cursor of its last row. */
export async function searchPageLines(db: Kysely<Database>, json: JsonReads, f: ResolvedCallLogFilter, cursor: CallLogCursor | null, limit: number, format: 'ndjson' | 'csv') {
  const line = format === 'csv' ? callLogsSql(db).callLogCsvLine() : callLogsSql(db).callLogJson()
  const query = pageQuery(db, f, cursor, limit).select([line.as('json'), 'timestamp', 'seq'])
  const { bytes, rows, last } = await json.bytes(query, { framing: format === 'csv' ? 'concat' : 'lines', last: ['timestamp', 'seq'] })
  return { bytes, rows, cursor: last as CallLogCursor | null }
}

/** [start, end) ranges of each line's message that the `q` terms matched, by seq. */
export function highlights(db: Kysely<Database>, terms: readonly SearchTerm[], lines: ReadonlyArray<{ seq: number; message: string }>) {
  return callLogsSql(db).highlights(db, terms, lines)
}

/** The columns facets count by; each leads an index with timestamp (0001, 0003). */
export type FacetColumn = 'log_level' | 'log_type' | 'tenant_id' | 'agent_id'

/** The filter dimension a facet leaves out (faceted search: the other values stay in sight); tenant and agent leave none. */
export const facetOmits = (column: FacetColumn): 'levels' | 'types' | undefined =>
  column === 'log_level' ? 'levels' : column === 'log_type' ? 'types' : undefined

/** Lines by value of `column` under the filter (its own dimension left out); lines without a value are not counted. */
export const countByQuery = (db: Kysely<Database>, f: ResolvedCallLogFilter, column: FacetColumn) =>
  applyFilter(db, db.selectFrom('call_logs'), f, facetOmits(column))
    .where(column, 'is not', null)
    .select((eb) => [eb.ref(column).as('value'), eb.fn.countAll<number>().as('count')])
    .groupBy(column)
    .orderBy('count', 'desc')

export async function countBy(db: Kysely<Database>, f: ResolvedCallLogFilter, column: FacetColumn): Promise<Array<{ value: string; count: number }>> {
  const rows = await countByQuery(db, f, column).execute()
  return rows.map((r) => ({ value: r.value as string, count: Number(r.count) }))
}

/**
 * Lines by (level, type, tenant, agent) under the filter without its levels and types: one pass
 * from which every facet is summed (facets of a narrow filter: a query, a text search, an agent).
 */
export const comboCountsQuery = (db: Kysely<Database>, f: ResolvedCallLogFilter) =>
  applyFilter(db, db.selectFrom('call_logs'), { ...f, levels: undefined, types: undefined })
    .select((eb) => ['log_level', 'log_type', 'tenant_id', 'agent_id', eb.fn.countAll<number>().as('count')])
    .groupBy(['log_level', 'log_type', 'tenant_id', 'agent_id'])

export async function comboCounts(db: Kysely<Database>, f: ResolvedCallLogFilter) {
  const rows = await comboCountsQuery(db, f).execute()
  return rows.map((r) => ({ log_level: r.log_level, log_type: r.log_type, tenant_id: r.tenant_id, agent_id: r.agent_id, count: Number(r.count) }))
}

/** Whether the filter, leaving `omit` out, is at most a time range: what index range counts serve. */
export function isTimeRangeOnly(f: ResolvedCallLogFilter, omit?: 'levels' | 'types'): boolean {
  return (
    !f.agentId && !f.tenantId && !f.match?.length && !f.query?.where && !f.callId && !f.traceId && !f.sessionId && f.source === undefined &&
    (omit === 'levels' || !f.levels?.length) && (omit === 'types' || !f.types?.length)
  )
}

/**
 * The distinct values of an indexed column, one index seek per value (a loose index scan written
 * as a recursive CTE, which PostgreSQL runs as well): five levels cost five seeks, not a scan of
 * a million index entries.
 */
export async function distinctValues(db: Kysely<Database>, column: FacetColumn): Promise<string[]> {
  const col = sql.ref(column)
  const result = await sql<{ v: string }>`
    with recursive seen(v) as (
      select min(${col}) from call_logs
      union all
      select (select min(${col}) from call_logs where ${col} > seen.v) from seen where seen.v is not null
    )
    select v from seen where v is not null`.execute(db)
  return result.rows.map((r) => r.v)
}

/** Lines with `column = value` in the filter's time range: one range count over (column, timestamp). */
export const countValueQuery = (db: Kysely<Database>, f: Pick<ResolvedCallLogFilter, 'from' | 'to'>, column: FacetColumn, value: string) =>
  applyFilter(db, db.selectFrom('call_logs'), { from: f.from, to: f.to })
    .where(column, '=', value)
    .select((eb) => eb.fn.countAll<number>().as('count'))

export async function countValue(db: Kysely<Database>, f: Pick<ResolvedCallLogFilter, 'from' | 'to'>, column: FacetColumn, value: string): Promise<number> {
  const row = await countValueQuery(db, f, column, value).executeTakeFirstOrThrow()
  return Number(row.count)
}

export async function timeBounds(db: Kysely<Database>, f: ResolvedCallLogFilter): Promise<{ min: string | null; max: string | null }> {
  // Two single-aggregate queries: SQLite answers each from the end of an index.
  const min = await applyFilter(db, db.selectFrom('call_logs'), f).select((eb) => eb.fn.min('timestamp').as('t')).executeTakeFirst()
  const max = await applyFilter(db, db.selectFrom('call_logs'), f).select((eb) => eb.fn.max('timestamp').as('t')).executeTakeFirst()
  return { min: (min?.t as string | null) ?? null, max: (max?.t as string | null) ?? null }
}

/** Counts per (bucket start in epoch seconds, level); buckets aligned to multiples of the size. */
export async function bucketCounts(db: Kysely<Database>, f: ResolvedCallLogFilter, bucketSeconds: number): Promise<Array<{ bucket: number; level: string; count: number }>> {
  const bucket = callLogsSql(db).timestampBucket(bucketSeconds)
  const rows = await applyFilter(db, db.selectFrom('call_logs'), f)
    .select((eb) => [bucket.as('bucket'), eb.ref('log_level').as('level'), eb.fn.countAll<number>().as('count')])
    .groupBy([bucket, 'log_level'])
    .execute()
  return rows.map((r) => ({ bucket: Number(r.bucket), level: r.level, count: Number(r.count) }))
}

/**
 * The same counts as `bucketCounts`, from one index range count per (level, bucket) over the
 * (log_level, timestamp) index: no per-row bucket arithmetic and no sort. Over a million lines this
 * takes tens of ms where grouping takes half a second. Only for filters that are time and level
 * alone (see `rangeCountable`); the others narrow the set through other indexes first.
 */
export async function bucketCountsByRange(
  db: Kysely<Database>,
  f: ResolvedCallLogFilter,
  bucketSeconds: number,
  firstBucket: number,
  lastBucket: number,
  slicer?: TimeSlicer,
): Promise<Array<{ bucket: number; level: string; count: number }>> {
  const out: Array<{ bucket: number; level: string; count: number }> = []
  for (const level of f.levels?.length ? f.levels : LOG_LEVELS) {
    for (let start = firstBucket; start <= lastBucket; start += bucketSeconds) {
      const lo = new Date(start * 1000).toISOString()
      const hi = new Date((start + bucketSeconds) * 1000 - 1).toISOString()
      const range = { levels: [level], from: f.from && f.from > lo ? f.from : lo, to: f.to && f.to < hi ? f.to : hi }
      const row = await applyFilter(db, db.selectFrom('call_logs'), range)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow()
      if (Number(row.count) > 0) out.push({ bucket: start, level, count: Number(row.count) })
      await slicer?.tick()
    }
  }
  return out
}

/** Whether a filter is only a time range and levels: what `bucketCountsByRange` serves. */
export const rangeCountable = (f: ResolvedCallLogFilter): boolean => isTimeRangeOnly(f, 'levels')

export function findById(db: Kysely<Database>, id: string): Promise<CallLogRow | undefined> {
  return db.selectFrom('call_logs').selectAll().where('id', '=', id).executeTakeFirst()
}

/** What the lines around an anchor share with it; each has an index led by it (timestamp for none). */
export type NeighbourColumn = 'call_id' | 'trace_id' | 'tenant_id' | 'agent_id'

/**
 * Lines before and after an anchor row in time order (seq breaking ties): those sharing `column`'s
 * value with it, or every line when `column` is null; only `tenantId`'s when given.
 */
export function neighbourQueries(db: Kysely<Database>, column: NeighbourColumn | null, anchor: CallLogRow, before: number, after: number, tenantId?: string) {
  const base = () => {
    let q = db.selectFrom('call_logs').selectAll()
    if (column) q = q.where(column, '=', anchor[column] as string)
    if (tenantId) q = q.where('tenant_id', '=', tenantId)
    return q
  }
  return {
    earlier: base()
      .where((eb) => eb(eb.refTuple('timestamp', 'seq'), '<', eb.tuple(anchor.timestamp, anchor.seq)))
      .orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(before),
    later: base()
      .where((eb) => eb(eb.refTuple('timestamp', 'seq'), '>', eb.tuple(anchor.timestamp, anchor.seq)))
      .orderBy('timestamp', 'asc').orderBy('seq', 'asc').limit(after),
  }
}

export async function neighbours(db: Kysely<Database>, column: NeighbourColumn | null, anchor: CallLogRow, before: number, after: number, tenantId?: string) {
  const { earlier, later } = neighbourQueries(db, column, anchor, before, after, tenantId)
  const rowsBefore = before === 0 ? [] : await earlier.execute()
  const rowsAfter = after === 0 ? [] : await later.execute()
  return { before: rowsBefore.reverse(), after: rowsAfter }
}
