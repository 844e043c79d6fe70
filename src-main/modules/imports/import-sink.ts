import type BetterSqlite3 from 'better-sqlite3'
import { type BulkLoad, type CallLogInsert, withCheckConstraintsOff, writeCallLogBatch } from '../call-logs/call-logs.write.repo'
import { type ImportError, progressColumns, refuseRecord } from './import-report'
import type { ImportProgressColumns, ImportRow } from './imports.repo'
import { type AnyBatch, type ParsedBatch, unpackBatch } from './parsed-batches'

export interface ImportSinkOptions {
  sqlite: BetterSqlite3.Database
  /** The import's record, kept up to date with its counts, status and failure. */
  row: ImportRow
  insert: CallLogInsert
  saveProgress: (id: string, progress: ImportProgressColumns) => void
  /** The bulk load the import writes into, or null to commit batch by batch. */
  load: BulkLoad | null
  /** Records per transaction when not in bulk. */
  batchSize: number
}

/** How an import ended: its counts, status and why it failed. */
export type ImportEnd = ImportProgressColumns & Pick<ImportRow, 'status' | 'failure'>

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
  let storeFailure: string | null = null
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
          // A store constraint the schema does not express (none known); the record, not the import, fails.
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
  /** Writes what is pending; a store failure is kept for `end`, and the load rolled back. */
  const flush = (): ImportProgressColumns | null => {
    if (storeFailure) return null
    try {
      // In bulk the whole import is one transaction already; otherwise each batch is one.
      if (load) writeBatches()
      else writeCallLogBatch(sqlite, writeBatches)
      return progress()
    } catch (error) {
      // The store itself failed (disk full, …): a bulk load keeps nothing, batches keep theirs.
      storeFailure = `the store could not take the records: ${(error as Error).message}`
      load?.abort()
      if (load) Object.assign(row, { inserted: 0, duplicates: 0 })
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
          storeFailure = `the store could not take the records: ${(error as Error).message}`
          load?.abort()
          if (load) Object.assign(row, { inserted: 0, duplicates: 0 })
        }
      }
      row.status = storeFailure || readFailure ? 'failed' : 'completed'
      row.failure = storeFailure ?? readFailure
      return { ...progress(), status: row.status, failure: row.failure }
    },
  }
}
