import type BetterSqlite3 from 'better-sqlite3'
import { isConstraintViolation } from '../../db/store-errors'
import { type BulkLoad, type CallLogInsert, withCheckConstraintsOff, writeCallLogBatch } from '../call-logs/call-logs.write.repo'
import { type ImportError, progressColumns, refuseRecord, storeFailureOf, type StoreFailure } from './import-report'
import type { ImportProgressColumns, ImportRow } from './imports.repo'
import { type AnyBatch, type ParsedBatch, unpackBatch } from './parsed-batches'

export interface ImportSinkOptions {
  sqlite: BetterSqlite3.Database
  /** The database file, named when the store fails (a full disk, damage). */
  storePath: string
  /** The import's record, kept up to date with its counts, status and failure. */
  row: ImportRow
  insert: CallLogInsert
  saveProgress: (id: string, progress: ImportProgressColumns) => void
  /** The bulk load the import writes into, or null to commit batch by batch. */
  load: BulkLoad | null
  /** Records per transaction when not in bulk. */
  batchSize: number
}

/** How an import ended: its counts, status and why it failed; `fault` when the store itself failed. */
export type ImportEnd = ImportProgressColumns & Pick<ImportRow, 'status' | 'failure'> & { fault: StoreFailure['fault'] }

export interface ImportSink {
  /**
   * Takes one parsed batch; writes what is pending once there are `batchSize` records (at once in
   * bulk). Returns the progress when it wrote, else null. After the store failed it takes nothing.
   */
  add(batch: AnyBatch, bytesRead: number): ImportProgressColumns | null
  /** True once the store refused a write: the caller stops sending. */
  readonly failed: boolean
  /**
   * Writes what is pending and settles the status: completed, or failed with why (`readFailure`:
   * the file could not be read on; or the store refused the rows). The batches before a broken
   * file stay; a bulk load that the store fails keeps nothing.
   */
  end(readFailure: string | null, bytesRead: number): ImportEnd
}

/**
 * The writing half of an import, on the writing connection (a write job's, imports.write-jobs.ts):
 * parsed batches gathered until `batchSize` records, then stored with the import's counts in one
 * transaction (call-logs.write.repo writeCallLogBatch), so a crash leaves the record true to the
 * rows. In bulk, each batch goes into the one load as it comes.
 */
export function createImportSink(o: ImportSinkOptions): ImportSink {
  const { sqlite, row, insert, load } = o
  const errors: ImportError[] = []
  let pending: ParsedBatch[] = []
  let pendingRecords = 0
  let storeFailure: StoreFailure | null = null
  let bytesRead = 0

  const refuse = (record: number, line: number, reason: string) => refuseRecord(row, errors, { record, line, reason })
  const progress = (): ImportProgressColumns => progressColumns(row, errors, bytesRead)
  const insertRows = () => {
    for (const batch of pending) {
      for (const r of batch.refused) refuse(r.record, r.line, r.reason)
      for (const [i, values] of batch.rows.entries()) {
        try {
          if (insert(values)) row.inserted++
          else row.duplicates++
        } catch (error) {
          // A store constraint the schema does not express (none known): the record, not the import,
          // fails. Anything else is the store's (a full disk, damage) and fails the whole batch:
          // SQLite may have rolled the transaction back already, and a later row would then commit
          // on its own, outside any batch (issue 36: 25,691 rows stored by an import reporting none).
          if (!isConstraintViolation(error)) throw error
          refuse(batch.positions[2 * i]!, batch.positions[2 * i + 1]!, (error as Error).message)
        }
      }
      row.records_read = batch.recordsRead
    }
  }
  const writeBatches = () => {
    // Only the call logs skip the checks: they come out of checkCallLog, which holds them to
    // the table's checks already. The import's own record is checked as usual.
    withCheckConstraintsOff(sqlite, insertRows)
    Object.assign(row, progress())
    o.saveProgress(row.id, row)
    load?.indexMessages()
  }
  /**
   * The store failed (a full disk, damage, …): a bulk load is rolled back whole, a batch is, and the
   * counts go back to what the store kept, so the report and the import's record equal the rows.
   */
  const failed = (error: unknown, kept: Pick<ImportRow, 'inserted' | 'duplicates'>) => {
    load?.abort()
    Object.assign(row, kept)
    storeFailure = storeFailureOf(error, o.storePath, load ? null : row.inserted)
  }
  /** Writes what is pending; a store failure is kept for `end`. */
  const flush = (): ImportProgressColumns | null => {
    if (storeFailure) return null
    const kept = load ? { inserted: 0, duplicates: 0 } : { inserted: row.inserted, duplicates: row.duplicates }
    try {
      // In bulk the whole import is one transaction already; otherwise each batch is one.
      if (load) load.write(writeBatches)
      else writeCallLogBatch(sqlite, writeBatches)
      return progress()
    } catch (error) {
      failed(error, kept)
      return null
    } finally {
      pending = []
      pendingRecords = 0
    }
  }

  return {
    get failed() {
      return storeFailure !== null
    },
    add(batch, read) {
      if (storeFailure) return null
      bytesRead = read
      const rows = unpackBatch(batch)
      pending.push(rows)
      pendingRecords += rows.rows.length + rows.refused.length
      // In bulk there is no commit to spread out: each batch is written as it comes.
      return load || pendingRecords >= o.batchSize ? flush() : null
    },
    end(readFailure, read) {
      bytesRead = read
      flush()
      if (!storeFailure) {
        try {
          load?.finish()
        } catch (error) {
          failed(error, { inserted: 0, duplicates: 0 })
        }
      }
      row.status = storeFailure || readFailure ? 'failed' : 'completed'
      row.failure = storeFailure?.message ?? readFailure
      return { ...progress(), status: row.status, failure: row.failure, fault: storeFailure?.fault ?? null }
    },
  }
}
