import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely } from 'kysely'
import type pg from 'pg'
import { inlineStore } from './inline-store'
import { createJsonReads, type JsonReads } from './json-reads'
import { applyPragmas } from './pragmas'
import { registerQueryBudget } from './query-budget'
import { createReadPool, type ReadPool } from './read-pool'
import type { Database } from './schema'
import type { StoreKind } from './store-kind'
import { StoreDialect } from './store-dialect'
import { createStoreHealth, faultAwareBackend, type StoreHealth } from './store-faults'
import { type StoreBackend, StoreWriter } from './store-writer'
import { startWriterThread } from './writer-thread'

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

/**
 * The store as services see it, SQLite or PostgreSQL (pg-connection.ts): kysely (`db`), the writer
 * that runs write jobs, JSON reads, where it is, and close. What only one store has is marked.
 */
export interface DatabaseHandle {
  /** Which store this is (db/store-kind.ts); dialect-specific SQL is chosen from `db` itself. */
  readonly kind: StoreKind
  /**
   * SQLite only: the raw driver on this thread, for what kysely cannot express (tests, inline
   * stores). A store whose writer is on its own thread, or a PostgreSQL store, has no connection
   * here: reading this throws.
   */
  readonly sqlite: BetterSqlite3.Database
  /** PostgreSQL only: the pool under `db`, for COPY (pg-copy-streams); null for SQLite. */
  readonly pg: pg.Pool | null
  db: Kysely<Database>
  /** The writing connection, wherever it lives: write jobs run through it. */
  writer: StoreWriter
  /** The reader threads behind `db`'s SELECTs, when there are any. */
  readPool: ReadPool | null
  /** Reads answered as JSON bytes built beside the query (on a reader thread when there are readers). */
  json: JsonReads
  /** The database file, `:memory:`, or the PostgreSQL URL without its password. */
  path: string
  /** The binding the handle was opened with, for a second connection to a copy (snapshots). */
  nativeBinding?: string
  /** The faults the store met: a full disk, damage (db/store-faults.ts). */
  health: StoreHealth
  close(): Promise<void>
}

const usesThreads = (options: OpenDatabaseOptions) => (options.readers ?? 0) > 0 && options.path !== ':memory:' && !options.readonly

/** kysely over a writer and, with readers, a pool; the handle without its `sqlite`. */
function assemble(options: OpenDatabaseOptions, backend: StoreBackend): Omit<DatabaseHandle, 'sqlite'> {
  const health = createStoreHealth(options.path)
  const readPool = usesThreads(options) ? createReadPool({ path: options.path, readers: options.readers, nativeBinding: options.nativeBinding, health }) : null
  const writer = new StoreWriter(faultAwareBackend(backend, options.path, health), health)
  const db = new Kysely<Database>({ dialect: new StoreDialect(writer, readPool) })
  let closed: Promise<void> | null = null
  return {
    kind: 'sqlite',
    pg: null,
    db,
    writer,
    readPool,
    json: createJsonReads(db, readPool),
    path: options.path,
    nativeBinding: options.nativeBinding,
    health,
    // Kysely's destroy closes the writing connection (or thread) and the read pool's threads.
    close: () => (closed ??= db.destroy()),
  }
}

// SQLite-only: the writing connection on this thread (a file or :memory:), readers on threads if asked.
export function openDatabase(options: OpenDatabaseOptions): DatabaseHandle {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
  const sqlite = new BetterSqlite3(options.path, { readonly: options.readonly ?? false, nativeBinding: options.nativeBinding })
  applyPragmas(sqlite, options.readonly ?? false)
  registerQueryBudget(sqlite)
  return { sqlite, ...assemble(options, inlineStore(sqlite, options.path, options.nativeBinding)) }
}

/**
 * The store as the desktop app and `serve` open it: with readers, the writing connection goes to a
 * thread of its own (the worker at `writerEntry`) and SELECTs to the read pool, so this thread holds
 * no connection at all and never waits on SQLite. Otherwise (0 readers, `:memory:`, read-only, no
 * entry) it is openDatabase.
 */
export async function openStore(options: OpenDatabaseOptions & { writerEntry?: URL | null }): Promise<DatabaseHandle> {
  if (!usesThreads(options) || !options.writerEntry) return openDatabase(options)
  mkdirSync(dirname(options.path), { recursive: true })
  // The writer creates the file and turns the WAL on before any reader opens it.
  const backend = await startWriterThread(options.writerEntry, { path: options.path, nativeBinding: options.nativeBinding })
  const handle = assemble(options, backend)
  return Object.defineProperty(handle, 'sqlite', {
    get() {
      throw new Error('This store writes on its writer thread: there is no connection on this thread (use handle.writer)')
    },
  }) as DatabaseHandle
}
