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

/**
 * Runs `load` with the table's secondary indexes and triggers dropped, then recreates them from
 * their stored definitions. Building an index once over sorted data is much cheaper than keeping
 * it up to date row by row. Call inside a transaction so a failure restores everything.
 */
export function withIndexesDeferred(sqlite: BetterSqlite3.Database, table: string, load: () => void): void {
  if (sqlite.inTransaction === false) throw new Error('withIndexesDeferred must run inside a transaction')
  const objects = sqlite
    .prepare<[string], { type: 'index' | 'trigger'; name: string; sql: string }>(
      `select type, name, sql from sqlite_master
       where tbl_name = ? and type in ('index', 'trigger') and sql is not null`,
    )
    .all(table)
  for (const o of objects) sqlite.exec(`drop ${o.type} "${o.name}"`)
  load()
  for (const o of objects) sqlite.exec(o.sql)
}

/**
 * Runs a large load with a rollback journal instead of the WAL: pages appended to a growing file
 * are not journaled at all, where the WAL would write every page twice (log, then checkpoint).
 * Only possible while no other connection has the database open; otherwise the WAL stays.
 */
export function withRollbackJournal<T>(sqlite: BetterSqlite3.Database, load: () => T): T {
  const previous = String(sqlite.pragma('journal_mode', { simple: true }))
  let switched = false
  if (previous === 'wal') {
    try {
      switched = String(sqlite.pragma('journal_mode = DELETE', { simple: true })) === 'delete'
    } catch {
      switched = false
    }
  }
  try {
    return load()
  } finally {
    if (switched) sqlite.pragma(`journal_mode = ${previous}`)
  }
}
