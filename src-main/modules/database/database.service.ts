import { existsSync, statSync } from 'node:fs'
import { sql } from 'kysely'
import type { DatabaseHandle } from '../../db/connection'
import { type SchemaVersion, schemaVersion } from '../../db/migrate'
import type { SeedOptions, SeedResult } from '../../seed'
import { countRows, type TableCounts } from './database.repo'
import { seedJob, snapshotJob } from './database.write-jobs'
import { type OpenScratchStore, seedPostgres } from './pg-seed'
import { snapshotPostgres } from './pg-snapshot'
import type { SnapshotOptions, SnapshotResult } from './snapshot-pack'

export interface DatabaseInfo {
  /** The file, `:memory:`, or the PostgreSQL URL without its password. */
  path: string
  /** 'sqlite' or 'postgres'. */
  kind: 'sqlite' | 'postgres'
  sizeBytes: number | null
  schema: SchemaVersion
  counts: TableCounts
}

function fileSize(path: string): number {
  // The WAL holds committed pages not yet checkpointed: part of the database's real size.
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0)
  return size(path) + size(`${path}-wal`)
}

/** The PostgreSQL database's size on its server (pg_database_size: tables, indexes, TOAST). */
async function postgresSize(handle: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ size: number }>`select pg_database_size(current_database()) as size`.execute(handle.db)
  return Number(rows[0]!.size)
}

/**
 * The store itself: where it is, how big, which schema, how many rows (`db info`, Settings), its
 * demo data and its snapshots. The adapters (CLI, desktop menu) go through here, never the handle.
 */
export interface DatabaseServiceOptions {
  /** How a PostgreSQL store's seed and snapshot open their scratch SQLite store (pg-seed.ts, pg-snapshot.ts); absent: both are refused. */
  openScratch?: OpenScratchStore
}

export function createDatabaseService(handle: DatabaseHandle, { openScratch }: DatabaseServiceOptions = {}) {
  return {
    /** The database file (or `:memory:`), or the PostgreSQL URL without its password. */
    path: handle.path,
    /** Which store this is: 'sqlite' or 'postgres'. */
    kind: handle.kind,
    /** Deterministic demo data (`callscope seed`, File → New demo database). */
    seed({ onProgress, ...seedOptions }: SeedOptions): Promise<SeedResult> {
      if (handle.kind === 'postgres') {
        if (!openScratch) throw new Error('seeding a PostgreSQL store needs a scratch SQLite store')
        return seedPostgres(handle, { ...seedOptions, onProgress }, openScratch)
      }
      return handle.writer.run(seedJob, seedOptions, onProgress as (value: unknown) => void)
    },
    /**
     * A consistent copy of the whole store in one file, a demo pack (`callscope snapshot`, File →
     * Export snapshot): without secrets unless `includeSecrets`, personal data pseudonymised with
     * `redact` (snapshot-pack.ts). A PostgreSQL store's pack is the same SQLite file (pg-snapshot.ts).
     */
    snapshot(file: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
      if (handle.kind === 'postgres') {
        if (!openScratch) throw new Error('a snapshot of a PostgreSQL store needs a scratch SQLite store')
        return snapshotPostgres(handle.db, file, options, openScratch)
      }
      return handle.writer.run(snapshotJob, { file, options })
    },
    async info(): Promise<DatabaseInfo> {
      const sizeBytes = handle.kind === 'postgres' ? await postgresSize(handle) : handle.path === ':memory:' ? null : fileSize(handle.path)
      return { path: handle.path, kind: handle.kind, sizeBytes, schema: await schemaVersion(handle.db), counts: await countRows(handle.db) }
    },
  }
}

export type DatabaseService = ReturnType<typeof createDatabaseService>
