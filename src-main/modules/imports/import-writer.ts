import type BetterSqlite3 from 'better-sqlite3'
import { type BulkLoad, type CallLogInsert, withCheckConstraintsOff, writeCallLogBatch } from '../call-logs/call-logs.write.repo'
import { ImportFormatError } from './record-readers'
import { MAX_REPORTED_ERRORS, toReport, type ImportError, type ImportReport } from './import-report'
import type { ImportProgressColumns, ImportRow } from './imports.repo'
import type { ParsedBatch } from './parsed-batches'

export interface ImportWriterOptions {
  sqlite: BetterSqlite3.Database
  /** The import's record, kept up to date with its counts, status and failure. */
  row: ImportRow
  insert: CallLogInsert
  saveProgress: (id: string, progress: ImportProgressColumns) => void
  /** The bulk load the import writes into, or null to commit batch by batch. */
  load: BulkLoad | null
  /** Records per transaction when not in bulk. */
  batchSize: number
  /** Bytes read from the input so far. */
  bytesRead: () => number
  onProgress?: (report: ImportReport) => void
}

export interface ImportWriter {
  /**
   * Writes every batch, then settles the import's status: completed, or failed with why (the file
   * could not be read on, or the store refused the rows). The batches before a broken file stay;
   * a bulk load that the store fails keeps nothing.
   */
  writeAll(batches: AsyncIterable<ParsedBatch>): Promise<void>
  /** The import's counts and reported errors, as its record stores them. */
  progress(): ImportProgressColumns
}

/**
 * The writing half of an import: parsed batches gathered until `batchSize` records, then stored
 * with the import's counts in one transaction (call-logs.write.repo writeCallLogBatch), so a crash
 * leaves the record true to the rows. In bulk, each batch goes into the one load as it comes.
 */
export function createImportWriter(o: ImportWriterOptions): ImportWriter {
  const { sqlite, row, insert, load } = o
  const errors: ImportError[] = []
  let pending: ParsedBatch[] = []
  let pendingRecords = 0

  const refuse = (record: number, line: number, reason: string) => {
    row.invalid++
    if (errors.length < MAX_REPORTED_ERRORS) errors.push({ record, line, reason })
  }
  const progress = (): ImportProgressColumns => ({
    bytes_read: o.bytesRead(),
    records_read: row.records_read,
    inserted: row.inserted,
    duplicates: row.duplicates,
    invalid: row.invalid,
    errors: JSON.stringify(errors),
    updated_at: new Date().toISOString(),
  })
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
  const flush = () => {
    // In bulk the whole import is one transaction already; otherwise each batch is one.
    if (load) writeBatches()
    else writeCallLogBatch(sqlite, writeBatches)
    pending = []
    pendingRecords = 0
    o.onProgress?.(toReport(row))
  }

  async function writeAll(batches: AsyncIterable<ParsedBatch>): Promise<void> {
    try {
      try {
        for await (const batch of batches) {
          pending.push(batch)
          pendingRecords += batch.rows.length + batch.refused.length
          // In bulk there is no commit to spread out: writing each batch as it comes keeps this thread
          // from holding up the reader that feeds the parse worker.
          if (load || pendingRecords >= o.batchSize) flush()
        }
        flush()
        row.status = 'completed'
      } catch (error) {
        if (pending.length) flush()
        row.status = 'failed'
        row.failure = error instanceof ImportFormatError ? error.message : `could not read the file: ${(error as Error).message}`
      }
      load?.finish()
    } catch (error) {
      // The store itself failed (disk full, …): a bulk load keeps nothing, batches keep theirs.
      load?.abort()
      if (load) Object.assign(row, { inserted: 0, duplicates: 0 })
      row.status = 'failed'
      row.failure = `the store could not take the records: ${(error as Error).message}`
    }
  }

  return { writeAll, progress }
}
