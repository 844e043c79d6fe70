import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { dropIndexesAndTriggers, dropObjects, restoreObjects, type StoredObject, useFileTempStore, useRollbackJournal } from '../../db/bulk-insert'
import { executeOn } from '../../db/inline-store'
import { isOrphanedRun } from '../../lib/process-alive'
import { messageIndexTriggers, prepareIndexMessagesAfter } from '../../db/message-indexes'
import type { Database, NewCallLog } from '../../db/schema'
import { type CallLogValues, STORED_CALL_LOG_COLUMNS } from './call-log-values'

/*
 * The call log write path, shared by imports and pulls: one checked insert, batches committed with
 * their full-text indexing, and the bulk load. Each piece marked "SQLite-only" works on the raw
 * better-sqlite3 handle or SQLite's own objects; another store needs its own version of it.
 */

/**
 * Where call logs being stored come from: an import (Callscope's own rows, source '', unless a
 * laptop pushes what it pulled: then that backend's base URL) or a pull, with the backend's base URL
 * as the lines' source (migrations 0006-origins, 0018-sources, 0021-import-sources).
 */
export type CallLogOrigin = { import_id: string; source?: string } | { pull_id: string; source: string }

/** Stores one call log row given as positional values; true when it was new, false for a known id. */
export type CallLogInsert = (values: CallLogValues) => boolean

/**
 * Inserts one call log unless a record with its id is already stored from the same source; true
 * when it was new. Every row of this writer records `origin`. Compiled once by kysely, run as a
 * prepared statement per row (see db/bulk-insert.ts for why).
 */
// SQLite-only: a prepared statement on the raw better-sqlite3 handle, run synchronously per row.
export function prepareCallLogInsert(db: Kysely<Database>, sqlite: BetterSqlite3.Database, origin: CallLogOrigin): CallLogInsert {
  const extra = Object.entries(origin) as Array<[keyof NewCallLog, string]>
  const placeholder = { ...Object.fromEntries(STORED_CALL_LOG_COLUMNS.map((c) => [c, null])), ...Object.fromEntries(extra.map(([c]) => [c, null])) } as unknown as NewCallLog
  const { sql } = db.insertInto('call_logs').values(placeholder).onConflict((oc) => oc.columns(['id', 'source']).doNothing()).compile()
  const statement = sqlite.prepare(sql)
  const extraValues = extra.map(([, v]) => v)
  return (values) => statement.run(values, ...extraValues).changes === 1
}

/*
 * Writers of rows checkCallLog accepted may turn the table's CHECK constraints off (its schema is
 * at least as strict as the checks; call-log-record.test.ts holds it to that).
 */
// SQLite-only: the ignore_check_constraints pragma (db/bulk-insert.ts).
export { withCheckConstraintsOff } from '../../db/bulk-insert'

/** The newest call log's seq (0 for none): what was written after it is what needs indexing. */
// SQLite-only: a prepared statement on the raw handle; seq is the rowid the FTS5 index keys on.
const prepareLastSeq = (sqlite: BetterSqlite3.Database) => sqlite.prepare<[], number>('select coalesce(max(seq), 0) from call_logs').pluck()

/** Indexes the messages of the call logs after a seq in every full-text index (db/message-indexes.ts). */
const prepareIndexAfter = prepareIndexMessagesAfter

/**
 * Runs `load` (inside the caller's transaction) with the full-text trigger off, then indexes the
 * new rows' messages in one INSERT … SELECT. Row by row through the trigger, FTS5 costs about
 * 35 µs a line on this class of machine; in one statement per batch, about 6. The trigger comes
 * back from its stored definition before the transaction commits, so no other writer ever sees
 * it missing.
 */
// SQLite-only: drops and recreates the FTS5 trigger from sqlite_master.
export function withFtsBatched<T>(sqlite: BetterSqlite3.Database, load: () => T): T {
  if (!sqlite.inTransaction) throw new Error('withFtsBatched must run inside a transaction')
  // Words and substrings (call_logs_fts, call_logs_trigram): each index's insert trigger.
  const triggers = messageIndexTriggers(sqlite, 'insert')
  if (triggers.length === 0) return load()
  const last = prepareLastSeq(sqlite).get()!
  for (const trigger of triggers) sqlite.exec(`drop trigger "${trigger.name}"`)
  const result = load()
  prepareIndexAfter(sqlite)(last)
  for (const trigger of triggers) sqlite.exec(trigger.sql)
  return result
}

/**
 * Runs `write` (synchronous call log inserts) as one transaction, its messages indexed for
 * full-text search in one statement at the end (withFtsBatched): the batch lands whole or not at all.
 */
// SQLite-only: a better-sqlite3 transaction on the raw handle, around withFtsBatched.
export function writeCallLogBatch<T>(sqlite: BetterSqlite3.Database, write: () => T): T {
  return sqlite.transaction(() => withFtsBatched(sqlite, write))()
}

/** Stores checked rows in one transaction (writeCallLogBatch); per row, whether it was new. */
export function storeCallLogs(sqlite: BetterSqlite3.Database, insert: CallLogInsert, rows: readonly CallLogValues[]): boolean[] {
  return writeCallLogBatch(sqlite, () => rows.map((values) => insert(values)))
}

export interface BulkLoad {
  /**
   * Runs `work` (the load's inserts) inside the load's transaction. Throws when SQLite has rolled
   * that transaction back on its own (it may on a full disk or an I/O error): rows written after
   * that would each commit alone, outside the load, while the import reports nothing stored.
   */
  write<T>(work: () => T): T
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
// SQLite-only: the rollback-journal switch, BEGIN IMMEDIATE on the raw handle, indexes and triggers dropped and rebuilt from sqlite_master.
export function beginBulkLoad(sqlite: BetterSqlite3.Database): BulkLoad {
  const restoreTempStore = useFileTempStore(sqlite)
  const journal = useRollbackJournal(sqlite)
  const restoreJournal = () => {
    journal()
    restoreTempStore()
  }
  sqlite.exec('begin immediate')
  try {
    const lastSeq = prepareLastSeq(sqlite)
    const indexAfter = prepareIndexAfter(sqlite)
    let indexed = lastSeq.get()!
    const restore = dropIndexesAndTriggers(sqlite, 'call_logs', ['call_logs_id'])
    const inLoad = () => {
      if (!sqlite.inTransaction) throw Object.assign(new Error('the store rolled the bulk load back'), { code: 'SQLITE_ABORT_ROLLBACK' })
    }
    const indexMessages = () => {
      inLoad()
      const last = lastSeq.get()!
      if (last > indexed) indexAfter(indexed)
      indexed = last
    }
    return {
      write(work) {
        inLoad()
        const result = work()
        inLoad()
        return result
      },
      indexMessages,
      finish() {
        inLoad()
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

/** A bulk load that commits as it goes (beginCheckpointedLoad). */
export interface CheckpointedLoad {
  /**
   * Indexes the messages written since the last checkpoint for full-text search and commits them
   * with the caller's writes since then; the load goes on in a new transaction.
   */
  checkpoint(): void
  /** Puts the indexes and triggers back, indexes the remaining messages, forgets the load, commits. */
  finish(): void
  /** Rolls back what was written since the last checkpoint, then finishes: what was committed stays, indexed. */
  abort(): void
}

/** The secondary indexes and triggers a checkpointed load drops; the id's unique index stays, it dedupes. */
const KEEP_DURING_LOAD = ['call_logs_id']

/**
 * Starts a bulk load that commits at each checkpoint, so an interrupted load keeps what it
 * committed (a pull then resumes from its cursor, written in the same transactions). The secondary
 * indexes and triggers are dropped as in beginBulkLoad, and a row of `call_log_bulk_loads` holds
 * their definitions until `finish`: a process killed in between leaves it, and the next open of
 * the store finishes the load (finishOrphanedBulkLoads). Other connections see each checkpoint's
 * rows without those indexes, and their messages not yet searchable, so this is for a store
 * nobody else is reading (the CLI). Null when another load is already under way: the caller then
 * stores as usual.
 */
// SQLite-only: the rollback-journal switch, BEGIN IMMEDIATE and COMMIT on the raw handle, indexes and triggers dropped and restored from sqlite_master.
export function beginCheckpointedLoad(db: Kysely<Database>, sqlite: BetterSqlite3.Database, owner: string): CheckpointedLoad | null {
  const restoreTempStore = useFileTempStore(sqlite)
  const journal = useRollbackJournal(sqlite)
  const restoreSettings = () => {
    journal()
    restoreTempStore()
  }
  let objects: StoredObject[]
  let indexed: number
  sqlite.exec('begin immediate')
  try {
    if (executeOn(sqlite, db.selectFrom('call_log_bulk_loads').select('id').limit(1).compile()).rows.length) {
      sqlite.exec('rollback')
      restoreSettings()
      return null
    }
    indexed = prepareLastSeq(sqlite).get()!
    objects = dropObjects(sqlite, 'call_logs', KEEP_DURING_LOAD)
    const row = { id: owner, pid: process.pid, started_at: new Date().toISOString(), objects: JSON.stringify(objects), indexed_seq: indexed }
    executeOn(sqlite, db.insertInto('call_log_bulk_loads').values(row).compile())
    sqlite.exec('commit')
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('rollback')
    restoreSettings()
    throw error
  }
  sqlite.exec('begin immediate')
  const lastSeq = prepareLastSeq(sqlite)
  const indexAfter = prepareIndexAfter(sqlite)
  const indexMessages = () => {
    const last = lastSeq.get()!
    if (last > indexed) indexAfter(indexed)
    indexed = last
    executeOn(sqlite, db.updateTable('call_log_bulk_loads').set({ indexed_seq: indexed }).where('id', '=', owner).compile())
  }
  const finish = () => {
    try {
      if (!sqlite.inTransaction) sqlite.exec('begin immediate')
      restoreObjects(sqlite, objects)
      indexMessages()
      executeOn(sqlite, db.deleteFrom('call_log_bulk_loads').where('id', '=', owner).compile())
      sqlite.exec('commit')
    } catch (error) {
      // The load's row stays committed: the next open of the store, in another process, finishes it.
      if (sqlite.inTransaction) sqlite.exec('rollback')
      throw error
    } finally {
      restoreSettings()
    }
  }
  return {
    checkpoint() {
      indexMessages()
      sqlite.exec('commit')
      sqlite.exec('begin immediate')
    },
    finish,
    abort() {
      // `indexed` moves only at checkpoints, so it is still what the last commit recorded.
      if (sqlite.inTransaction) sqlite.exec('rollback')
      finish()
    },
  }
}

/**
 * Finishes the bulk loads whose process is gone (killed or crashed mid-load): each one's indexes
 * and triggers back and its remaining messages indexed, in one transaction. Run when a store
 * opens; returns how many there were.
 */
// SQLite-only: indexes and triggers restored from their sqlite_master definitions, messages indexed by seq.
export function finishOrphanedBulkLoads(db: Kysely<Database>, sqlite: BetterSqlite3.Database, onStart: () => void = () => {}): number {
  const loads = executeOn<{ id: string; pid: number; objects: string; indexed_seq: number }>(
    sqlite,
    db.selectFrom('call_log_bulk_loads').select(['id', 'pid', 'objects', 'indexed_seq']).compile(),
  ).rows.filter((load) => isOrphanedRun(load.pid))
  if (loads.length) onStart()
  for (const load of loads) {
    sqlite.transaction(() => {
      restoreObjects(sqlite, JSON.parse(load.objects) as StoredObject[])
      prepareIndexAfter(sqlite)(load.indexed_seq)
      executeOn(sqlite, db.deleteFrom('call_log_bulk_loads').where('id', '=', load.id).compile())
    })()
  }
  return loads.length
}

/** Stored call logs, counted to decide between a bulk and a batched load. */
export async function countCallLogs(db: Kysely<Database>): Promise<number> {
  const { n } = await db.selectFrom('call_logs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(n)
}

/** Whether the store holds any call log: a pull loads in bulk only into an empty table. */
export async function hasCallLogs(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('call_logs').select('seq').limit(1).executeTakeFirst()) !== undefined
}
