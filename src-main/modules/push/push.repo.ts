import type { Kysely, Selectable } from 'kysely'
import type { CallLogsTable, Database } from '../../db/schema'
import { STORED_CALL_LOG_COLUMNS } from '../call-logs/call-log-values'

/*
 * What `callscope push` reads of the laptop's store: the call logs of each source, in the order
 * they were stored (seq), a page at a time.
 */

/** The call logs a source holds ('' local, else a pulled backend's base URL). */
export interface SourceCount {
  source: string
  count: number
}

/** Every source with call logs, and how many, or only `only`'s; local first, then by base URL. */
export async function callLogCountsBySource(db: Kysely<Database>, only?: string): Promise<SourceCount[]> {
  let query = db.selectFrom('call_logs').select((eb) => ['source', eb.fn.countAll<number>().as('count')]).groupBy('source').orderBy('source')
  if (only !== undefined) query = query.where('source', '=', only)
  const rows = await query.execute()
  return rows.map((r) => ({ source: r.source, count: Number(r.count) }))
}

export type PushedRow = Pick<Selectable<CallLogsTable>, (typeof STORED_CALL_LOG_COLUMNS)[number] | 'seq'>

/**
 * The next `limit` call logs of `source` after `afterSeq`, in insertion order: the server then
 * stores them in that order too, so lines sharing a timestamp list as they do here (the store breaks
 * such ties by insertion). A range of the primary key on SQLite (seq is the rowid), of each month's
 * primary key on PostgreSQL; `source` is checked on the rows read.
 */
export function callLogPage(db: Kysely<Database>, source: string, afterSeq: number, limit: number): Promise<PushedRow[]> {
  return callLogPageQuery(db, source, afterSeq, limit).execute() as Promise<PushedRow[]>
}

/** callLogPage's statement (its plan is checked: push.repo.test.ts, test/pg/plans.test.ts). */
export const callLogPageQuery = (db: Kysely<Database>, source: string, afterSeq: number, limit: number) =>
  db.selectFrom('call_logs').select([...STORED_CALL_LOG_COLUMNS, 'seq']).where('seq', '>', afterSeq).where('source', '=', source).orderBy('seq').limit(limit)
