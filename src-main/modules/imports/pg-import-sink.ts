import type { Kysely } from 'kysely'
import type pg from 'pg'
import type { Database } from '../../db/schema'
import { ensureStagedMonths, inTransaction, insertStagedCallLogs, openCallLogStaging, stageCallLogs } from '../call-logs/call-logs.pg-write.repo'
import { type CopyBatch, toCopyBatch } from './copy-batches'
import { type ImportError, progressColumns, refuseRecord, storeFailureOf, type StoreFailure } from './import-report'
import type { ImportEnd } from './import-sink'
import type { ImportProgressColumns, ImportRow } from './imports.repo'
import type { AnyBatch } from './parsed-batches'

export interface PgImportSinkOptions {
  pool: pg.Pool
  db: Kysely<Database>
  /** The server, named when it fails (a full disk, damage). */
  storePath: string
  /** The import's record, kept up to date with its counts, status and failure. */
  row: ImportRow
  /** Records per transaction. */
  batchSize: number
}

/** The PostgreSQL side of ImportSink (import-sink.ts): the same calls, asynchronous. */
export interface PgImportSink {
  add(batch: AnyBatch | CopyBatch, bytesRead: number): Promise<ImportProgressColumns | null>
  readonly failed: boolean
  /** Writes what is pending, settles the status and gives the connection back. */
  end(readFailure: string | null, bytesRead: number): Promise<ImportEnd>
}

/**
 * The writing half of an import on a PostgreSQL store, on a connection of its own for the whole
 * import (its staging table is that session's): batches gathered until `batchSize` records, then
 * COPY'd into staging, their months given partitions, and written with the import's counts in one
 * transaction (call-logs.pg-write.repo.ts), so the import's record stays true to the rows, as on
 * SQLite. A store failure fails the import; the batches before it stay. There is no bulk mode: the
 * indexes stay live, and COPY is the fast path already.
 */
export async function openPgImportSink(o: PgImportSinkOptions): Promise<PgImportSink> {
  const { row, db } = o
  const client = await o.pool.connect()
  try {
    await openCallLogStaging(client)
  } catch (error) {
    client.release(error as Error)
    throw error
  }
  const errors: ImportError[] = []
  let pending: Uint8Array[] = []
  let pendingRecords = 0
  let storeFailure: StoreFailure | null = null
  let broken: Error | undefined
  let bytesRead = 0

  const progress = (): ImportProgressColumns => progressColumns(row, errors, bytesRead)
  let staged = 0
  const take = (batch: CopyBatch) => {
    for (const r of batch.refused) refuseRecord(row, errors, r)
    if (batch.rows) pending.push(batch.copy)
    staged += batch.rows
    row.records_read = batch.recordsRead
  }
  /** Writes what is pending; a store failure is kept for `end`. */
  const flush = async (): Promise<ImportProgressColumns | null> => {
    if (storeFailure) return null
    const rows = staged
    const chunks = pending
    pending = []
    pendingRecords = 0
    staged = 0
    const before = { inserted: row.inserted, duplicates: row.duplicates }
    try {
      if (rows) {
        await stageCallLogs(client, chunks)
        await ensureStagedMonths(client)
      }
      await inTransaction(client, async () => {
        const written = rows ? (await insertStagedCallLogs(client, { import_id: row.id, source: row.call_log_source })).written : 0
        row.inserted += written
        row.duplicates += rows - written
        Object.assign(row, progress())
        const { sql, parameters } = db.updateTable('imports').set(progress()).where('id', '=', row.id).compile()
        await client.query(sql, parameters as unknown[])
      })
      return progress()
    } catch (error) {
      // The batch rolled back: the record counts what the store kept.
      Object.assign(row, before)
      storeFailure = storeFailureOf(error, o.storePath, row.inserted)
      broken = error as Error
      return null
    }
  }

  return {
    get failed() {
      return storeFailure !== null
    },
    async add(batch, read) {
      if (storeFailure) return null
      bytesRead = read
      const copy = toCopyBatch(batch)
      take(copy)
      pendingRecords += copy.rows + copy.refused.length
      return pendingRecords >= o.batchSize ? flush() : null
    },
    async end(readFailure, read) {
      bytesRead = read
      try {
        await flush()
      } finally {
        client.release(broken)
      }
      row.status = storeFailure || readFailure ? 'failed' : 'completed'
      row.failure = storeFailure?.message ?? readFailure
      return { ...progress(), status: row.status, failure: row.failure, fault: storeFailure?.fault ?? null }
    },
  }
}
