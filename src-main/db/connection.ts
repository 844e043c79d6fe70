import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { createReadPool, type ReadPool } from './read-pool'
import { ReadRoutingDialect } from './read-routing-dialect'
import type { Database } from './schema'

export interface OpenDatabaseOptions {
  /** File path, or `:memory:` for a private in-memory store (tests). */
  path: string
  readonly?: boolean
  /** Path to an alternative better-sqlite3 native binding (the Electron-ABI build in the desktop app). */
  nativeBinding?: string
  /**
   * Reader threads for SELECTs outside transactions (read-pool.ts); 0 runs every query on this
   * thread, as one-shot CLI commands do. Ignored for `:memory:` and read-only stores.
   */
  readers?: number
}

export interface DatabaseHandle {
  /** The raw driver, for what kysely cannot express: pragmas, bulk loading, backups. */
  sqlite: BetterSqlite3.Database
  db: Kysely<Database>
  /** The reader threads behind `db`'s SELECTs, when there are any. */
  readPool: ReadPool | null
  path: string
  /** The binding the handle was opened with, for a second connection to a copy (snapshots). */
  nativeBinding?: string
  close(): Promise<void>
}

// SQLite-only: one better-sqlite3 connection (a file or :memory:) under kysely's SqliteDialect; the handle exposes the raw driver.
export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
  const sqlite = new BetterSqlite3(options.path, {
    readonly: options.readonly ?? false,
    nativeBinding: options.nativeBinding,
  })
  applyPragmas(sqlite, options.readonly ?? false)
  const pooled = (options.readers ?? 0) > 0 && options.path !== ':memory:' && !options.readonly
  const readPool = pooled ? createReadPool({ path: options.path, readers: options.readers, nativeBinding: options.nativeBinding }) : null
  const dialect = readPool ? new ReadRoutingDialect(sqlite, readPool) : new SqliteDialect({ database: sqlite })
  const db = new Kysely<Database>({ dialect })
  let closed = false
  return {
    sqlite,
    db,
    readPool,
    path: options.path,
    nativeBinding: options.nativeBinding,
    async close() {
      if (closed) return
      closed = true
      // Kysely's destroy closes the better-sqlite3 handle too, and the read pool's threads.
      await db.destroy()
    },
  }
}

// SQLite-only: connection pragmas (journal mode, sync, foreign keys, busy timeout, page cache, temp store).
function applyPragmas(sqlite: BetterSqlite3.Database, readonly: boolean): void {
  // WAL lets the console read while an import writes; NORMAL sync is durable across app crashes
  // in WAL mode and only risks the last transaction on power loss.
  if (!readonly) sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('cache_size = -65536') // 64 MiB page cache
  sqlite.pragma('temp_store = MEMORY')
}
