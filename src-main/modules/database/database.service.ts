import { existsSync, statSync } from 'node:fs'
import { sql } from 'kysely'
import { type BackupProgress, type BackupResult, backupSqliteStore } from '../../db/backup'
import { pgDumpAdvice } from '../../db/pg-dump-advice'
import type { DatabaseHandle } from '../../db/connection'
import { type SchemaVersion, schemaVersion } from '../../db/migrate'
import type { SeedOptions, SeedResult } from '../../seed'
import { countRows, type TableCounts } from './database.repo'
import { InvalidInputError } from '../../kit/errors'
import { startWriterThread } from '../../db/writer-thread'
import { toStoreFault } from '../../db/store-faults'
import { restated, StoreDamagedError, StoreFullError } from '../../../src-shared/store-faults'
import { backupJob, seedJob, snapshotJob } from './database.write-jobs'
import { type OpenScratchStore, seedPostgres } from './pg-seed'
import { snapshotPostgres } from './pg-snapshot'
import type { SnapshotOptions, SnapshotResult } from './snapshot-pack'

/** A store fault as it comes back from the backup's thread (its name and message only) made the error it was, for the transports' one table. */
function revivedFault(error: unknown, storePath: string): unknown {
  const { name, message } = error as Error
  if (name === 'StoreFullError') return new StoreFullError(message, { storePath })
  if (name === 'StoreDamagedError') return new StoreDamagedError(message, { storePath })
  return error
}

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
  /** The writer thread's code (writer/writer-entry.ts): a backup runs on a thread of its own started from it; absent, on this thread. */
  backupThreadEntry?: URL | null
}

export function createDatabaseService(handle: DatabaseHandle, { openScratch, backupThreadEntry }: DatabaseServiceOptions = {}) {
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
      // One transaction: a full disk leaves the store as it was.
      return handle.writer.run(seedJob, seedOptions, onProgress as (value: unknown) => void).catch((error: unknown) => {
        throw restated(error, 'The seed')
      })
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
      // The pack's disk full comes back from the writer by name (snapshot-pack.ts packFault).
      return handle.writer.run(snapshotJob, { file, options }).catch((error: unknown) => {
        throw revivedFault(error, file)
      })
    },
    /**
     * A consistent copy of the SQLite store in FILE while it serves (db/backup.ts): `callscope
     * serve --backup-every`, the app's scheduled backups. It runs on a thread started for it, with
     * a read-only connection of its own, outside the writer's queue: writes go on meanwhile and the
     * thread answering requests runs none of it. A PostgreSQL store answers with pg_dump's command.
     */
    async backup(file: string, options: { force?: boolean; onProgress?: (progress: BackupProgress) => void } = {}): Promise<BackupResult> {
      if (handle.kind === 'postgres') throw new InvalidInputError(pgDumpAdvice(handle.path))
      if (handle.path === ':memory:') throw new InvalidInputError('an in-memory store has no file to back up')
      if (!backupThreadEntry) return backupSqliteStore(handle.path, file, { ...options, nativeBinding: handle.nativeBinding })
      const thread = await startWriterThread(backupThreadEntry, { path: handle.path, nativeBinding: handle.nativeBinding }).catch((error: unknown) => {
        throw toStoreFault(error, handle.path, 'The backup')
      })
      try {
        return await thread.job(backupJob, { file, force: options.force }, options.onProgress as ((value: unknown) => void) | undefined)
      } catch (error) {
        throw revivedFault(error, handle.path)
      } finally {
        await thread.close()
      }
    },
    async info(): Promise<DatabaseInfo> {
      const sizeBytes = handle.kind === 'postgres' ? await postgresSize(handle) : handle.path === ':memory:' ? null : fileSize(handle.path)
      return { path: handle.path, kind: handle.kind, sizeBytes, schema: await schemaVersion(handle.db), counts: await countRows(handle.db) }
    },
  }
}

export type DatabaseService = ReturnType<typeof createDatabaseService>
