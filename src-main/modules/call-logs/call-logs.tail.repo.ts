import type { Kysely, SelectQueryBuilder } from 'kysely'
import type { CallLogRow, Database } from '../../db/schema'
import { applyFilter, type ResolvedCallLogFilter } from './call-logs.search.repo'

/** The highest seq stored, 0 for an empty store: one look at the end of the table's b-tree. */
export async function maxSeq(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('call_logs').select((eb) => eb.fn.max('seq').as('seq')).executeTakeFirst()
  return Number(row?.seq ?? 0)
}

/**
 * The lines stored with after < seq <= upTo that match the filter, in the order they were stored.
 * The window is a subquery with a LIMIT so that SQLite reads it as a range of the table's rowid and
 * filters those few rows (windowQuery), instead of walking an index of the filter (an agent's index holds
 * thousands of older lines) and sorting. Checked with EXPLAIN QUERY PLAN in the tail's tests.
 */
export function windowQuery(db: Kysely<Database>, f: ResolvedCallLogFilter, after: number, upTo: number) {
  const window = db.selectFrom('call_logs').selectAll().where('seq', '>', after).where('seq', '<=', upTo).orderBy('seq').limit(Math.max(1, upTo - after))
  // The window has the table's own columns, so the filter applies to it as to the table.
  const rows = db.selectFrom(window.as('call_logs')) as unknown as SelectQueryBuilder<Database, 'call_logs', object>
  return applyFilter(db, rows, { ...f, seqWindow: { after, upTo } }).selectAll().orderBy('seq')
}

export function linesInWindow(db: Kysely<Database>, f: ResolvedCallLogFilter, after: number, upTo: number): Promise<CallLogRow[]> {
  return windowQuery(db, f, after, upTo).execute() as Promise<CallLogRow[]>
}
