import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { Database } from './schema'

/**
 * What a write job works with: the one connection that writes (on the writer thread, or the
 * caller's own when the store runs inline) and kysely over it, to compile statements.
 */
export interface WriteContext {
  sqlite: BetterSqlite3.Database
  db: Kysely<Database>
  /** The database file (or `:memory:`), and the binding it was opened with: for a second connection to a copy. */
  path: string
  nativeBinding?: string
  /** Tells the caller how far the job got (its onProgress); a no-op when nobody listens. */
  progress(value: unknown): void
  /** State a job leaves for a later one on the same connection (an import under way), by key. */
  sessions: Map<string, unknown>
}

/**
 * A unit of synchronous SQLite work that needs the raw connection: bulk loads, the demo seed,
 * snapshots. Services run it through the store's writer (db/store-writer.ts), which runs it on the
 * writer thread, so the thread answering requests never waits on it. Arguments and result cross
 * threads by structured clone: plain data only. Every job is listed in src-main/writer/write-jobs.ts,
 * where the writer thread finds it by name.
 */
export interface WriteJob<A, R> {
  readonly name: string
  run(ctx: WriteContext, args: A): R | Promise<R>
  /**
   * The same job on a PostgreSQL store (issue 20), when it has one: asynchronous work on the pool
   * (COPY, a transaction on a connection of its own), run on the event loop, since pg never blocks
   * it. A job without one fails there with PostgresJobError.
   */
  readonly postgres?: (ctx: PgWriteContext, args: A) => Promise<R>
  /**
   * The buffers of `args` that move to the writer thread instead of being copied (an import's
   * packed batch): the caller gives them up, so the thread answering requests copies nothing.
   */
  transfer?(args: A): ArrayBuffer[]
}

/** What a write job's PostgreSQL side works with: the store's pool and kysely over it. */
export interface PgWriteContext {
  pool: pg.Pool
  db: Kysely<Database>
  /** The server's URL without its password: named when it fails (a full disk, damage). */
  path: string
  progress(value: unknown): void
  /** State a job leaves for a later one (an import under way, with its connection), by key. */
  sessions: Map<string, unknown>
}

export function defineWriteJob<A, R>(
  name: string,
  run: (ctx: WriteContext, args: A) => R | Promise<R>,
  postgres?: (ctx: PgWriteContext, args: A) => Promise<R>,
  options: Pick<WriteJob<A, R>, 'transfer'> = {},
): WriteJob<A, R> {
  return postgres ? { name, run, postgres, ...options } : { name, run, ...options }
}
