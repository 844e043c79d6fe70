import { existsSync, statSync } from 'node:fs'
import type { DatabaseHandle } from '../../db/connection'
import { type SchemaVersion, schemaVersion } from '../../db/migrate'
import type { SeedOptions, SeedResult } from '../../seed'
import { countRows, type TableCounts } from './database.repo'
import { seedJob, snapshotJob } from './database.write-jobs'
import type { SnapshotOptions, SnapshotResult } from './snapshot-pack'

export interface DatabaseInfo {
  path: string
  sizeBytes: number | null
  schema: SchemaVersion
  counts: TableCounts
}

function fileSize(path: string): number {
  // The WAL holds committed pages not yet checkpointed: part of the database's real size.
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0)
  return size(path) + size(`${path}-wal`)
}

/**
 * The store itself: where it is, how big, which schema, how many rows (`db info`, Settings), its
 * demo data and its snapshots. The adapters (CLI, desktop menu) go through here, never the handle.
 */
export function createDatabaseService(handle: DatabaseHandle) {
  return {
    /** The database file (or `:memory:`). */
    path: handle.path,
    /** Deterministic demo data (`callscope seed`, File → New demo database). */
    seed({ onProgress, ...options }: SeedOptions): Promise<SeedResult> {
      return handle.writer.run(seedJob, options, onProgress as (value: unknown) => void)
    },
    /**
     * A consistent copy of the whole store in one file, a demo pack (`callscope snapshot`, File →
     * Export snapshot): without secrets unless `includeSecrets`, personal data pseudonymised with
     * `redact` (snapshot-pack.ts).
     */
    snapshot(file: string, options: SnapshotOptions = {}): Promise<SnapshotResult> {
      return handle.writer.run(snapshotJob, { file, options })
    },
    async info(): Promise<DatabaseInfo> {
      const sizeBytes = handle.path === ':memory:' ? null : fileSize(handle.path)
      return { path: handle.path, sizeBytes, schema: await schemaVersion(handle.db), counts: await countRows(handle.db) }
    },
  }
}

export type DatabaseService = ReturnType<typeof createDatabaseService>
