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
 * What a PANIC adds to the import's failure: the server itself stopped (a full disk refusing its
 * WAL does that, where one refusing a table's page is an ordinary error), so the user knows to see
 * that it runs again. The batches committed before it survive its crash recovery.
 */
const serverStopped = (panic: string) =>
  `The PostgreSQL server stopped on it (PANIC: ${panic}) and cut every connection; it restarts by itself when it can write again: if it stays down, start it once there is room.`

/**
 * Waits, up to `ms`, for a server that PANICked to take connections again (its crash recovery
 * takes about a second when it can write), so that the import's end is recorded: failed, with the
 * batches that survived counted. One that stays down leaves the record running, read as
 * interrupted once this process is gone (run-lifecycle.ts).
 */
async function serverBack(pool: pg.Pool, ms: number): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    try {
      ;(await pool.connect()).release()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
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
  let panicked = false
  let bytesRead = 0
  // A server that stops (PostgreSQL PANICs when a full disk refuses its WAL, and restarts) cuts
  // this held connection between queries. pg says so with an 'error' event, which nobody heard
  // while the pool lends the connection out: the CLI died with a bare stack. The query in flight
  // fails with the server's own error instead, and the connection is not given back for reuse.
  const onLost = (error: Error) => {
    broken ??= error
  }
  client.on('error', onLost)

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
      panicked = (error as { severity?: string }).severity === 'PANIC'
      if (panicked) storeFailure.message += ` ${serverStopped((error as Error).message)}`
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
        client.off('error', onLost)
        client.release(broken)
      }
      if (panicked) await serverBack(o.pool, 30_000)
      row.status = storeFailure || readFailure ? 'failed' : 'completed'
      row.failure = storeFailure?.message ?? readFailure
      return { ...progress(), status: row.status, failure: row.failure, fault: storeFailure?.fault ?? null }
    },
  }
}
