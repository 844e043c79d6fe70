import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from './schema'

/**
 * Fast paths for loading many rows: one prepared statement per table, run with positional values.
 * The SQL still comes from kysely's builder; only the per-row compile and promise are skipped,
 * which is what makes a million-row load take seconds instead of minutes.
 */
export type RowWriter = (values: readonly unknown[]) => void

export function prepareInsert<T extends keyof Database & string>(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  table: T,
  columns: readonly (keyof Database[T] & string)[],
): RowWriter {
  const placeholder = Object.fromEntries(columns.map((c) => [c, null]))
  const { sql } = db.insertInto(table).values(placeholder as never).compile()
  const statement = sqlite.prepare(sql)
  return (values) => {
    statement.run(values as unknown[])
  }
}

/** An index or trigger as sqlite_master stores it: enough to create it again. */
export interface StoredObject {
  type: 'index' | 'trigger'
  name: string
  sql: string
}

/**
 * Drops the table's indexes and triggers (except those named in `keep`) and returns their stored
 * definitions, for restoreObjects. Building an index once over sorted data is much cheaper than
 * keeping it up to date row by row.
 */
export function dropObjects(sqlite: BetterSqlite3.Database, table: string, keep: readonly string[] = []): StoredObject[] {
  if (sqlite.inTransaction === false) throw new Error('dropping indexes for a load must happen inside a transaction')
  const objects = sqlite
    .prepare<[string], StoredObject>(
      `select type, name, sql from sqlite_master
       where tbl_name = ? and type in ('index', 'trigger') and sql is not null`,
    )
    .all(table)
    .filter((o) => !keep.includes(o.name))
  for (const o of objects) sqlite.exec(`drop ${o.type} "${o.name}"`)
  return objects
}

/** Creates again each of `objects` that the schema does not hold (dropObjects' list, maybe restored in part). */
export function restoreObjects(sqlite: BetterSqlite3.Database, objects: readonly StoredObject[]): void {
  const present = sqlite.prepare<[string, string], number>('select 1 from sqlite_master where type = ? and name = ?').pluck()
  for (const o of objects) if (present.get(o.type, o.name) === undefined) sqlite.exec(o.sql)
}

/**
 * Drops the table's indexes and triggers (except those named in `keep`) and returns what recreates
 * them from their stored definitions. Run both inside one transaction, so a failure or a crash in
 * between restores everything.
 */
export function dropIndexesAndTriggers(sqlite: BetterSqlite3.Database, table: string, keep: readonly string[] = []): () => void {
  const objects = dropObjects(sqlite, table, keep)
  return () => {
    for (const o of objects) sqlite.exec(o.sql)
  }
}

/**
 * Runs `write` with SQLite's CHECK constraints off, for rows already validated against a schema at
 * least as strict as the table's checks (call-log-record.test.ts holds the importer to that). On
 * call_logs the checks parse every row's details JSON once more: about a tenth of an import's
 * insert. NOT NULL, UNIQUE and STRICT column types still apply. `write` is synchronous, so nothing
 * else runs on the connection while the checks are off.
 */
export function withCheckConstraintsOff<T>(sqlite: BetterSqlite3.Database, write: () => T): T {
  sqlite.pragma('ignore_check_constraints = ON')
  try {
    return write()
  } finally {
    sqlite.pragma('ignore_check_constraints = OFF')
  }
}

/** Runs `load` with the table's secondary indexes and triggers dropped (see above), inside a transaction. */
export function withIndexesDeferred(sqlite: BetterSqlite3.Database, table: string, load: () => void): void {
  const restore = dropIndexesAndTriggers(sqlite, table)
  load()
  restore()
}

/**
 * Switches a WAL database to a rollback journal for a large load and returns what switches back:
 * pages appended to a growing file are not journaled at all, where the WAL would write every page
 * twice (log, then checkpoint). Only possible while no other connection has the database open;
 * otherwise the WAL stays. A crash in between leaves a hot journal that the next open rolls back,
 * and openDatabase turns the WAL on again.
 */
export function useRollbackJournal(sqlite: BetterSqlite3.Database): () => void {
  if (String(sqlite.pragma('journal_mode', { simple: true })) !== 'wal') return () => {}
  try {
    if (String(sqlite.pragma('journal_mode = DELETE', { simple: true })) === 'delete') return () => sqlite.pragma('journal_mode = WAL')
  } catch {
    // Another connection has the database open: keep the WAL.
  }
  return () => {}
}

/**
 * Sorts and temporary b-trees on disk for the length of a large load, back to the previous setting
 * after. Rebuilding an index over millions of rows sorts them all; SQLite's sorter keeps a bounded
 * buffer in memory and spills the rest to temporary files, which with the connection's usual
 * temp_store = MEMORY would live in RAM, so an import's memory would grow with its file.
 * Outside a transaction only: changing temp_store drops existing temporary tables.
 */
export function useFileTempStore(sqlite: BetterSqlite3.Database): () => void {
  const before = Number(sqlite.pragma('temp_store', { simple: true }))
  sqlite.pragma('temp_store = FILE')
  return () => sqlite.pragma(`temp_store = ${before}`)
}

/** Runs a large load with a rollback journal and its sorts on disk (see useRollbackJournal, useFileTempStore). */
export function withRollbackJournal<T>(sqlite: BetterSqlite3.Database, load: () => T): T {
  const restoreTempStore = useFileTempStore(sqlite)
  const restore = useRollbackJournal(sqlite)
  try {
    return load()
  } finally {
    restore()
    restoreTempStore()
  }
}
