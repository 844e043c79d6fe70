import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import type { DatabaseHandle } from './connection'
import { createJsonReads } from './json-reads'
import { storeTypes } from './pg-types'
import type { Database } from './schema'
import { displayLocation } from './store-kind'
import { createStoreHealth, faultAwareBackend } from './store-faults'
import { type StoreBackend, StoreWriter } from './store-writer'

/**
 * Connections the service keeps to a PostgreSQL server, unless told otherwise (`--pool`,
 * CALLSCOPE_PG_POOL). Each request's query holds one connection while it runs; ten lets ten run at
 * once, more than the cores of the machines Callscope serves from, while a server's default
 * max_connections (100) leaves room for several instances, psql and backups.
 */
export const DEFAULT_PG_POOL_SIZE = 10

export interface OpenPostgresOptions {
  /** `postgres://user[:password]@host[:port]/database` (libpq's URL; `?sslmode=` and friends as pg reads them). */
  url: string
  /** Most connections open at once (DEFAULT_PG_POOL_SIZE). */
  poolSize?: number
}

/** The message of a write job asked of a PostgreSQL store: jobs are SQLite's raw-connection work. */
export class PostgresJobError extends Error {
  constructor(job: string) {
    super(`${job} is not available on a PostgreSQL store yet (docs/architecture.md, "PostgreSQL store")`)
    this.name = 'PostgresJobError'
  }
}

/**
 * The writer of a PostgreSQL store has no connection of its own: kysely's statements go through the
 * pool. A write job runs its PostgreSQL side (`WriteJob.postgres`: imports and pulls through COPY)
 * on the pool; a job without one (snapshots, the seed's raw SQLite work) fails with PostgresJobError.
 * StoreWriter still makes jobs take turns, as on SQLite.
 */
function pgJobs(pool: pg.Pool, db: Kysely<Database>, path: string): StoreBackend {
  const sessions = new Map<string, unknown>()
  return {
    threaded: false,
    execute: () => Promise.reject(new Error('a PostgreSQL store runs its statements through kysely, not the writer')),
    job: (job, args, onProgress) =>
      job.postgres ? job.postgres({ pool, db, path, sessions, progress: (value) => onProgress?.(value) }, args) : Promise.reject(new PostgresJobError(job.name)),
    close: async () => {},
  }
}

/**
 * A store on a PostgreSQL server: kysely's PostgresDialect over a pg.Pool. pg is asynchronous (the
 * socket is read by the event loop), so the thread that answers requests never waits on the store
 * and needs no reader or writer threads. Each connection works in UTC with ISO dates, and the
 * pool reads values in the SQLite store's shapes (pg-types.ts). The handle is the SQLite one's
 * shape: `sqlite` throws (as for a store whose writer is on its thread), `readPool` is null.
 */
export function openPostgresStore(options: OpenPostgresOptions): DatabaseHandle & { pg: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_PG_POOL_SIZE,
    options: '-c TimeZone=UTC -c DateStyle=ISO,YMD -c IntervalStyle=iso_8601',
    application_name: 'callscope',
    types: storeTypes,
  })
  // An idle connection the server drops (restart, admin) is an 'error' on the pool: without a
  // listener Node would end the process. The next query takes a new connection.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  let closed: Promise<void> | null = null
  const path = displayLocation(options.url)
  const health = createStoreHealth()
  const handle = {
    kind: 'postgres' as const,
    pg: pool,
    db,
    writer: new StoreWriter(faultAwareBackend(pgJobs(pool, db, path), path, health), health),
    health,
    readPool: null,
    json: createJsonReads(db, null),
    path,
    // kysely's destroy ends the pool.
    close: () => (closed ??= db.destroy()),
  }
  return Object.defineProperty(handle, 'sqlite', {
    get() {
      throw new Error('This is a PostgreSQL store: there is no SQLite connection (use handle.db)')
    },
  }) as DatabaseHandle & { pg: pg.Pool }
}
