import { existsSync, statSync } from 'node:fs'
import type { DatabaseHandle } from '../../db/connection'
import { type SchemaVersion, schemaVersion } from '../../db/migrate'
import { countRows, type TableCounts } from './database.repo'

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

/** The store itself: where it is, how big, which schema, how many rows (`db info`, Settings). */
export function createDatabaseService(handle: DatabaseHandle) {
  return {
    async info(): Promise<DatabaseInfo> {
      const sizeBytes = handle.path === ':memory:' ? null : fileSize(handle.path)
      return { path: handle.path, sizeBytes, schema: await schemaVersion(handle.db), counts: await countRows(handle.db) }
    },
  }
}

export type DatabaseService = ReturnType<typeof createDatabaseService>
