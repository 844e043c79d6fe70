import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
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
   * The buffers of `args` that move to the writer thread instead of being copied (an import's
   * packed batch): the caller gives them up, so the thread answering requests copies nothing.
   */
  transfer?(args: A): ArrayBuffer[]
}

export function defineWriteJob<A, R>(name: string, run: (ctx: WriteContext, args: A) => R | Promise<R>, options: Pick<WriteJob<A, R>, 'transfer'> = {}): WriteJob<A, R> {
  return { name, run, ...options }
}
