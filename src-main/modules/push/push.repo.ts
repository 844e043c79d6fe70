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

/**
 * Where the last push of a source to a server got to: the last call log the server confirmed
 * (its `seq` and id). Kept in the store's settings, so a snapshot or copy of the store carries the
 * cursor that matches its rows.
 */
export interface PushCursor {
  seq: number
  id: string
}

const cursorKey = (url: string, source: string) => `push.cursor ${url} ${source === '' ? 'local' : source}`

export async function pushCursor(db: Kysely<Database>, url: string, source: string): Promise<PushCursor | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', cursorKey(url, source)).executeTakeFirst()
  if (!row) return null
  const value = JSON.parse(row.value) as Partial<PushCursor>
  return typeof value.seq === 'number' && typeof value.id === 'string' ? { seq: value.seq, id: value.id } : null
}

export async function savePushCursor(db: Kysely<Database>, url: string, source: string, cursor: PushCursor, now: string): Promise<void> {
  const value = JSON.stringify(cursor)
  await db
    .insertInto('settings')
    .values({ key: cursorKey(url, source), value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute()
}

/** The id of the call log stored at `seq` (a primary key read), to check a cursor still names the row it did. */
export async function callLogIdAt(db: Kysely<Database>, seq: number): Promise<string | null> {
  const row = await db.selectFrom('call_logs').select('id').where('seq', '=', seq).executeTakeFirst()
  return row?.id ?? null
}

/** How many call logs of `source` come after `afterSeq` (a range of the primary key, `source` checked on the rows read). */
export async function callLogCountAfter(db: Kysely<Database>, source: string, afterSeq: number): Promise<number> {
  const row = await db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('count')).where('seq', '>', afterSeq).where('source', '=', source).executeTakeFirstOrThrow()
  return Number(row.count)
}
