import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely, Selectable } from 'kysely'
import { dropIndexesAndTriggers, useRollbackJournal } from '../../db/bulk-insert'
import type { Database, ImportsTable, NewCallLog } from '../../db/schema'

export { withCheckConstraintsOff } from '../../db/bulk-insert'

export type ImportRow = Selectable<ImportsTable>

/** The 13 columns of a call log row, in the order `prepareCallLogInsert` takes its values. */
export const CALL_LOG_COLUMNS = [
  'id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id',
  'session_id', 'call_id', 'details', 'user_id', 'trace_id', 'request_id',
] as const satisfies ReadonlyArray<keyof NewCallLog>

/** A call log row as positional values, in CALL_LOG_COLUMNS order. */
export type CallLogValues = Array<string | null>

/** Where call logs being stored come from: an import or a pull (see migration 0006-origins). */
export type CallLogOrigin = { import_id: string } | { pull_id: string }

/**
 * Inserts one call log unless a record with its id is already stored; true when it was new.
 * Every row of this writer records `origin`. Compiled once by kysely, run as a prepared statement
 * per row (see db/bulk-insert.ts for why).
 */
export function prepareCallLogInsert(db: Kysely<Database>, sqlite: BetterSqlite3.Database, origin: CallLogOrigin): (values: CallLogValues) => boolean {
  const [[column, id]] = Object.entries(origin) as [[keyof CallLogOrigin, string]]
  const placeholder = { ...Object.fromEntries(CALL_LOG_COLUMNS.map((c) => [c, null])), [column]: null } as unknown as NewCallLog
  const { sql } = db.insertInto('call_logs').values(placeholder).onConflict((oc) => oc.column('id').doNothing()).compile()
  const statement = sqlite.prepare(sql)
  return (values) => statement.run(values, id).changes === 1
}

/** A row object as the positional values `prepareCallLogInsert` takes. */
export const callLogValues = (row: NewCallLog): CallLogValues => CALL_LOG_COLUMNS.map((c) => row[c] ?? null) as CallLogValues

/** The newest call log's seq (0 for none): what was written after it is what needs indexing. */
const prepareLastSeq = (sqlite: BetterSqlite3.Database) => sqlite.prepare<[], number>('select coalesce(max(seq), 0) from call_logs').pluck()

/** Indexes for full-text search, in one statement, the messages of the call logs after a seq. */
const prepareIndexAfter = (sqlite: BetterSqlite3.Database) =>
  sqlite.prepare<[number]>('insert into call_logs_fts(rowid, message) select seq, message from call_logs where seq > ?')

/**
 * Runs `load` (inside the caller's transaction) with the full-text trigger off, then indexes the
 * new rows' messages in one INSERT … SELECT. Row by row through the trigger, FTS5 costs about
 * 35 µs a line on this class of machine; in one statement per batch, about 6. The trigger comes
 * back from its stored definition before the transaction commits, so no other writer ever sees
 * it missing.
 */
export function withFtsBatched(sqlite: BetterSqlite3.Database, load: () => void): void {
  if (!sqlite.inTransaction) throw new Error('withFtsBatched must run inside a transaction')
  const trigger = sqlite
    .prepare<[], { sql: string }>("select sql from sqlite_master where type = 'trigger' and name = 'call_logs_fts_insert'")
    .get()
  if (!trigger) return load()
  const last = prepareLastSeq(sqlite).get()!
  sqlite.exec('drop trigger call_logs_fts_insert')
  load()
  prepareIndexAfter(sqlite).run(last)
  sqlite.exec(trigger.sql)
}

export interface BulkLoad {
  /**
   * Indexes the messages written since the last call for full-text search. FTS5 takes them in
   * bulk as well as at the end, so calling this while waiting for the parser shortens the end.
   */
  indexMessages(): void
  /** Rebuilds the indexes, indexes the remaining messages for full-text search, commits. */
  finish(): void
  /** Rolls the whole load back, indexes included. */
  abort(): void
}

/**
 * Starts loading many call logs in one transaction with their secondary indexes and triggers
 * dropped; the id's unique index stays, it is what dedupes. Worth it when the load is at least as
 * large as the table: rebuilding costs about 6 µs per stored row, keeping the eight indexes up to
 * date about 15 µs per loaded one (docs/benchmarks.md). Readers on other connections see the
 * table as it was, indexes and all, until `finish` commits; a crash rolls everything back. With
 * no other connection open, the load also runs without the WAL (useRollbackJournal).
 */
export function beginBulkLoad(sqlite: BetterSqlite3.Database): BulkLoad {
  const restoreJournal = useRollbackJournal(sqlite)
  sqlite.exec('begin immediate')
  try {
    const lastSeq = prepareLastSeq(sqlite)
    const indexAfter = prepareIndexAfter(sqlite)
    let indexed = lastSeq.get()!
    const restore = dropIndexesAndTriggers(sqlite, 'call_logs', ['call_logs_id'])
    const indexMessages = () => {
      const last = lastSeq.get()!
      if (last > indexed) indexAfter.run(indexed)
      indexed = last
    }
    return {
      indexMessages,
      finish() {
        restore()
        indexMessages()
        sqlite.exec('commit')
        restoreJournal()
      },
      abort() {
        if (sqlite.inTransaction) sqlite.exec('rollback')
        restoreJournal()
      },
    }
  } catch (error) {
    sqlite.exec('rollback')
    restoreJournal()
    throw error
  }
}

/** Stored call logs, counted to decide between a bulk and a batched load. */
export async function countCallLogs(db: Kysely<Database>): Promise<number> {
  const { n } = await db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(n)
}

export function insertImport(db: Kysely<Database>, row: ImportRow): Promise<unknown> {
  return db.insertInto('imports').values(row).execute()
}

export type ImportProgressColumns = Pick<ImportRow, 'bytes_read' | 'records_read' | 'inserted' | 'duplicates' | 'invalid' | 'errors' | 'updated_at'>

/** The same update as a prepared statement, to run inside a batch's synchronous transaction. */
export function prepareProgressUpdate(db: Kysely<Database>, sqlite: BetterSqlite3.Database): (id: string, p: ImportProgressColumns) => void {
  const { sql } = db
    .updateTable('imports')
    .set({ bytes_read: 0, records_read: 0, inserted: 0, duplicates: 0, invalid: 0, errors: '', updated_at: '' })
    .where('id', '=', '')
    .compile()
  const statement = sqlite.prepare(sql)
  return (id, p) => {
    statement.run(p.bytes_read, p.records_read, p.inserted, p.duplicates, p.invalid, p.errors, p.updated_at, id)
  }
}

export function finishImport(db: Kysely<Database>, id: string, end: Pick<ImportRow, 'status' | 'finished_at' | 'duration_ms' | 'failure'> & ImportProgressColumns): Promise<unknown> {
  return db.updateTable('imports').set(end).where('id', '=', id).execute()
}

export function listImports(db: Kysely<Database>, limit: number): Promise<ImportRow[]> {
  return db.selectFrom('imports').selectAll().orderBy('started_at', 'desc').orderBy('id').limit(limit).execute()
}

export function findImport(db: Kysely<Database>, id: string): Promise<ImportRow | undefined> {
  return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst()
}

export function runningImports(db: Kysely<Database>): Promise<Array<Pick<ImportRow, 'id' | 'pid'>>> {
  return db.selectFrom('imports').select(['id', 'pid']).where('status', '=', 'running').execute()
}

export function markInterrupted(db: Kysely<Database>, ids: string[], at: string): Promise<unknown> {
  return db.updateTable('imports').set({ status: 'interrupted', finished_at: at }).where('id', 'in', ids).execute()
}
