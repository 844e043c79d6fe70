import { type Kysely, type RawBuilder, sql } from 'kysely'
import { COUNT_BY_ERROR_LEVELS } from '../../../src-shared/schemas/call-log-count-by'
import type { Database } from '../../db/schema'
import { applyFilter, type FacetColumn, type ResolvedCallLogFilter, timestampBucket } from './call-logs.search.repo'
import { jsonPath } from './log-query'

/*
 * Count-by's reads (issue 17 pt 4). A filter that is a bare time range, counted by an indexed
 * column, is counted as the histogram and the facets do it: one range count of the column's
 * (column, timestamp) index per value and bucket, no row read. Anything else is one grouped read of
 * the lines the filter selects, by (bucket, group).
 */

/** What the lines are grouped by: an indexed column, or the value of a details key (no index). */
export type Grouping = { column: FacetColumn } | { detailsKey: string }

/**
 * A details key's value as JSON text (`"groq"`, `200`, `true`, `null`), so the text "200" and the
 * number 200 are two groups as the store holds them; SQL null when the line has no such key.
 */
// SQLite-only: JSON1's `->` operator (PostgreSQL: details #> path, a jsonb value).
export function detailsJsonOf(key: string): RawBuilder<string | null> {
  return sql<string | null>`details -> ${jsonPath(key.split('.'))}`
}

const groupExpression = (g: Grouping): RawBuilder<string | null> => ('column' in g ? sql<string | null>`${sql.ref(g.column)}` : detailsJsonOf(g.detailsKey))

/**
 * Lines per (bucket start in epoch seconds, group) under the filter, with how many of them are at an
 * error level, in one read; at most `limit` rows. Grouped by the selected columns' names, so the
 * group expression is written (and, for details, parsed) once per line.
 */
export const cellCountsQuery = (db: Kysely<Database>, f: ResolvedCallLogFilter, g: Grouping, bucketSeconds: number, limit: number) =>
  applyFilter(db.selectFrom('call_logs'), f)
    .select((eb) => [
      timestampBucket(bucketSeconds).as('bucket'),
      groupExpression(g).as('value'),
      eb.fn.countAll<number>().as('count'),
      eb.fn.sum<number>(eb.case().when('log_level', 'in', [...COUNT_BY_ERROR_LEVELS]).then(1).else(0).end()).as('errors'),
    ])
    .groupBy([sql.ref('bucket'), sql.ref('value')])
    .limit(limit)

export interface Cell {
  bucket: number
  /** The column's value or the details value's JSON text; null: the line has none. */
  value: string | null
  count: number
  errors: number
}

export async function cellCounts(db: Kysely<Database>, f: ResolvedCallLogFilter, g: Grouping, bucketSeconds: number, limit: number): Promise<Cell[]> {
  const rows = await cellCountsQuery(db, f, g, bucketSeconds, limit).execute()
  return rows.map((r) => ({ bucket: Number(r.bucket), value: r.value ?? null, count: Number(r.count), errors: Number(r.errors) }))
}

export interface Range {
  from: string
  to: string
}

/** Lines in the range, with `column` = value when given (null: lines without one): one range count of an index. */
export const rangeCountQuery = (db: Kysely<Database>, range: Range, where?: { column: FacetColumn; value: string | null }) => {
  let q = applyFilter(db.selectFrom('call_logs'), range)
  if (where) q = where.value === null ? q.where(where.column, 'is', null) : q.where(where.column, '=', where.value)
  return q.select((eb) => eb.fn.countAll<number>().as('count'))
}

export async function rangeCount(db: Kysely<Database>, range: Range, where?: { column: FacetColumn; value: string | null }): Promise<number> {
  const row = await rangeCountQuery(db, range, where).executeTakeFirstOrThrow()
  return Number(row.count)
}

/** Lines at an error level in the range, by value of `column`: few lines, read along the level index. */
export const errorCountsQuery = (db: Kysely<Database>, range: Range, column: FacetColumn) =>
  applyFilter(db.selectFrom('call_logs'), { ...range, levels: [...COUNT_BY_ERROR_LEVELS] })
    .select((eb) => [eb.ref(column).as('value'), eb.fn.countAll<number>().as('count')])
    .groupBy(column)

export async function errorCounts(db: Kysely<Database>, range: Range, column: FacetColumn): Promise<Map<string | null, number>> {
  const rows = await errorCountsQuery(db, range, column).execute()
  return new Map(rows.map((r) => [(r.value as string | null) ?? null, Number(r.count)]))
}
