import { type Kysely, type RawBuilder, sql } from 'kysely'
import { COUNT_BY_ERROR_LEVELS } from '../../../src-shared/schemas/call-log-count-by'
import { storeSql } from '../../db/store-sql'
import type { Database } from '../../db/schema'
import { applyFilter, type FacetColumn, type ResolvedCallLogFilter } from './call-logs.search.repo'
import { type CallLogsSql, callLogsSql, type DetailsTyped } from './call-logs.sql'
import { detailsJsonText, keyPath } from './details-values'

/*
 * Count-by's reads (issue 17 pt 4). A filter that is a bare time range, counted by an indexed
 * column, is counted as the histogram and the facets do it: one range count of the column's
 * (column, timestamp) index per value and bucket, no row read; counted by a details key with an
 * index of its own (0019), from that index alone (below). Anything else is one grouped read of the
 * lines the filter selects, by (bucket, group).
 */

/** What the lines are grouped by: an indexed column, or the value of a details key (some have an index: details-values.ts). */
export type Grouping = { column: FacetColumn } | { detailsKey: string }

/**
 * What a line is grouped by: the column's value, or a details key's (JSON type, value) pair (SQL
 * nulls when the line has no such key), turned into the value's JSON text once counted
 * (`"groq"`, `200`, `true`), so the text "200" and the number 200 are two groups. Text groups
 * under NOCASE, as the query language's `details.<key>:<text>` matches it.
 */
function groupExpressions(s: CallLogsSql, g: Grouping): { type: RawBuilder<string | null>; value: RawBuilder<unknown>; shown: RawBuilder<unknown> | null } {
  if ('column' in g) return { type: sql<null>`null`, value: sql`${sql.ref(g.column)}`, shown: null }
  const path = keyPath(g.detailsKey)
  return { type: s.detailsGroupType(path), value: s.detailsGroupValue(path), shown: s.detailsGroupShown(path) }
}

/**
 * Lines per (bucket start in epoch seconds, group) under the filter, with how many of them are at an
 * error level, in one read; at most `limit` rows. Grouped by the selected columns' names, so the
 * group expression is written (and, for details, parsed) once per line.
 */
export const cellCountsQuery = (db: Kysely<Database>, f: ResolvedCallLogFilter, g: Grouping, bucketSeconds: number, limit: number) => {
  const s = callLogsSql(db)
  const group = groupExpressions(s, g)
  return applyFilter(db, db.selectFrom('call_logs'), f)
    .select((eb) => [
      s.timestampBucket(bucketSeconds).as('bucket'),
      group.type.as('vtype'),
      group.value.as('value'),
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>(eb.case().when('log_level', 'in', [...COUNT_BY_ERROR_LEVELS]).then(1).else(0).end()).as('errors'),
    ])
    .$if(group.shown !== null, (q) => q.select(group.shown!.as('shown')))
    .groupBy([sql.ref('bucket'), sql.ref('vtype'), sql.ref('value')])
    .limit(limit)
}

/** A group's key: a column's value, or a details value's JSON text (read in SQLite's names: readDetailsGroup); null when the line has none. */
export function groupKey(s: CallLogsSql, type: string | null, value: unknown, g: Grouping, shown?: unknown): string | null {
  if ('column' in g) return (value as string | null) ?? null
  if (type === null) return null
  const read = s.readDetailsGroup(type, shown === undefined ? value : shown)
  return detailsJsonText(read.type, read.value)
}

export interface Cell {
  bucket: number
  /** The column's value or the details value's JSON text; null: the line has none. */
  value: string | null
  count: number
  errors: number
}

export async function cellCounts(db: Kysely<Database>, f: ResolvedCallLogFilter, g: Grouping, bucketSeconds: number, limit: number): Promise<Cell[]> {
  const s = callLogsSql(db)
  const rows = await cellCountsQuery(db, f, g, bucketSeconds, limit).execute()
  return rows.map((r) => ({ bucket: Number(r.bucket), value: groupKey(s, r.vtype, r.value, g, r.shown), count: Number(r.count), errors: Number(r.errors) }))
}

export interface Range {
  from: string
  to: string
}

/** Lines in the range, with `column` = value when given (null: lines without one): one range count of an index. */
export const rangeCountQuery = (db: Kysely<Database>, range: Partial<Range>, where?: { column: FacetColumn; value: string | null }) => {
  let q = applyFilter(db, db.selectFrom('call_logs'), range)
  if (where) q = where.value === null ? q.where(where.column, 'is', null) : q.where(where.column, '=', where.value)
  return q.select((eb) => eb.fn.countAll<number>().as('count'))
}

export async function rangeCount(db: Kysely<Database>, range: Partial<Range>, where?: { column: FacetColumn; value: string | null }): Promise<number> {
  const row = await rangeCountQuery(db, range, where).executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Lines at an error level in the range, by value of `column`: few lines, read along the level index. */
export const errorCountsQuery = (db: Kysely<Database>, range: Range, column: FacetColumn) =>
  applyFilter(db, db.selectFrom('call_logs'), { ...range, levels: [...COUNT_BY_ERROR_LEVELS] })
    .select((eb) => [eb.ref(column).as('value'), eb.fn.countAll<number>().as('count')])
    .groupBy(column)

export async function errorCounts(db: Kysely<Database>, range: Range, column: FacetColumn): Promise<Map<string | null, number>> {
  const rows = await errorCountsQuery(db, range, column).execute()
  return new Map(rows.map((r) => [(r.value as string | null) ?? null, Number(r.count)]))
}

/*
 * A details key with an index of its own (details-values.ts, migration 0019) over a bare time range:
 * every count below reads that index alone, no line and no JSON. Its order is (type, value,
 * timestamp), so lines per value come out of it grouped, without a sort.
 */

/**
 * Only lines with the key, in the range: the partial index's own condition, then time. The time
 * terms keep the time index out (`unindexed`), so SQLite reads the key's index (every entry holds
 * its time) rather than the time index and each line's JSON: 2.5 s against 60 ms over the million lines.
 */
const withKeyInRange = (db: Kysely<Database>, range: Partial<Range>, path: string[]) => {
  const { unindexed } = storeSql(db)
  let q = db.selectFrom('call_logs').where(callLogsSql(db).hasDetailsKey(path))
  if (range.from) q = q.where(unindexed(sql.ref<string>('timestamp')), '>=', range.from)
  if (range.to) q = q.where(unindexed(sql.ref<string>('timestamp')), '<=', range.to)
  return q
}

/** Lines per (JSON type, value) of an indexed key in the range, every value (the index holds few per key). */
export const indexedValueCountsQuery = (db: Kysely<Database>, range: Partial<Range>, key: string) => {
  const path = keyPath(key)
  const s = callLogsSql(db)
  const shown = s.detailsGroupShown(path)
  return withKeyInRange(db, range, path)
    .select((eb) => [s.detailsGroupType(path).as('vtype'), s.detailsGroupValue(path).as('value'), eb.fn.countAll<number>().as('count')])
    .$if(shown !== null, (q) => q.select(shown!.as('shown')))
    .groupBy([s.detailsGroupType(path), s.detailsGroupValue(path)])
}

/** An indexed key's value in SQLite's names (DetailsTyped), with the store's own (type, value) to count its buckets by. */
export interface IndexedValue extends DetailsTyped {
  count: number
  stored: { type: string; value: unknown }
}

export async function indexedValueCounts(db: Kysely<Database>, range: Partial<Range>, key: string): Promise<IndexedValue[]> {
  const s = callLogsSql(db)
  const rows = await indexedValueCountsQuery(db, range, key).execute()
  return rows.map((r) => ({ ...s.readDetailsGroup(r.vtype!, r.shown === undefined ? r.value : r.shown), count: Number(r.count), stored: { type: r.vtype!, value: r.value } }))
}

/** Lines per bucket of one (type, value) of an indexed key as the store holds it (IndexedValue.stored), or of every line with the key (`only` absent). */
export const indexedBucketCountsQuery = (db: Kysely<Database>, range: Range, key: string, bucketSeconds: number, only?: { type: string; value: unknown }) => {
  const path = keyPath(key)
  const s = callLogsSql(db)
  let q = withKeyInRange(db, range, path)
  if (only) q = q.where(s.detailsGroupType(path), '=', only.type).where(s.detailsGroupValue(path), '=', only.value)
  return q.select((eb) => [s.timestampBucket(bucketSeconds).as('bucket'), eb.fn.countAll<number>().as('count')]).groupBy(sql.ref('bucket'))
}

export async function indexedBucketCounts(db: Kysely<Database>, range: Range, key: string, bucketSeconds: number, only?: { type: string; value: unknown }): Promise<Map<number, number>> {
  const rows = await indexedBucketCountsQuery(db, range, key, bucketSeconds, only).execute()
  return new Map(rows.map((r) => [Number(r.bucket), Number(r.count)]))
}

/** Lines at an error level in the range by (type, value) of a details key: few lines, read along the level index. */
export async function errorCountsByDetails(db: Kysely<Database>, range: Range, key: string): Promise<Map<string | null, number>> {
  const g: Grouping = { detailsKey: key }
  const s = callLogsSql(db)
  const group = groupExpressions(s, g)
  const rows = await applyFilter(db, db.selectFrom('call_logs'), { ...range, levels: [...COUNT_BY_ERROR_LEVELS] })
    .select((eb) => [group.type.as('vtype'), group.value.as('value'), eb.fn.countAll<number>().as('count')])
    .$if(group.shown !== null, (q) => q.select(group.shown!.as('shown')))
    .groupBy([sql.ref('vtype'), sql.ref('value')])
    .execute()
  return new Map(rows.map((r) => [groupKey(s, r.vtype, r.value, g, r.shown), Number(r.count)]))
}
