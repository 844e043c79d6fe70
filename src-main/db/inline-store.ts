import type BetterSqlite3 from 'better-sqlite3'
import { Kysely, type QueryResult, SqliteDialect } from 'kysely'
import type { Database } from './schema'
import type { Statement, StoreBackend } from './store-writer'
import type { WriteContext } from './write-job'

/** SQLite-only: runs one compiled statement on a better-sqlite3 connection, as kysely's SqliteDriver does. */
export function executeOn<R>(sqlite: BetterSqlite3.Database, { sql, parameters }: Statement): QueryResult<R> {
  const statement = sqlite.prepare(sql)
  if (statement.reader) return { rows: statement.all(parameters) as R[] }
  const { changes, lastInsertRowid } = statement.run(parameters)
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
}

/**
 * The writing connection on the calling thread: in-memory stores (tests), read-only stores and
 * one-shot CLI commands, where nothing else waits on the thread. Jobs run right here.
 */
export function inlineStore(sqlite: BetterSqlite3.Database, path: string, nativeBinding?: string): StoreBackend {
  const sessions = new Map<string, unknown>()
  // The jobs' own kysely, straight on the connection: the store's kysely waits for the job to end.
  let jobDb: Kysely<Database> | null = null
  const db = () => (jobDb ??= new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }))
  return {
    threaded: false,
    execute: async <R>(statement: Statement) => executeOn<R>(sqlite, statement),
    async job(job, args, onProgress) {
      const ctx: WriteContext = { sqlite, db: db(), path, nativeBinding, sessions, progress: (value) => onProgress?.(value) }
      return job.run(ctx, args)
    },
    close: async () => {
      if (sqlite.open) sqlite.close()
    },
  }
}
