import { randomUUID } from 'node:crypto'
import { Transform, type Readable } from 'node:stream'
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { isOrphanedRun } from '../../lib/process-alive'
import { NotFoundError } from '../../kit/errors'
import type { ImportFormat } from './import-format'
import * as repo from './imports.repo'
import { parseInWorker } from './parse-in-worker'
import { type ParsedBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'

/** Refused records kept in an import's report; the counts cover the rest. */
export const MAX_REPORTED_ERRORS = 100
/** Below this size a file is parsed on the writing thread: a worker takes longer to start. */
const WORKER_THRESHOLD_BYTES = 1 << 20
/** Below this many records a bulk load saves too little to be worth holding one long transaction. */
const BULK_MIN_RECORDS = 50_000
/** Bytes per record assumed when estimating a file's records from its size; real exports run 400–700. */
const BULK_BYTES_PER_RECORD = 1000
/** Records per message from the parser: small enough to keep the writer busy from the start. */
const PARSE_BATCH = 2000

export interface ImportError {
  /** 1-based position of the record in the file. */
  record: number
  /** Line the record starts on (for CSV: the line it ends on). */
  line: number
  reason: string
}

export interface ImportReport {
  id: string
  source: string
  format: ImportFormat
  status: 'running' | 'completed' | 'failed' | 'interrupted'
  startedAt: string
  updatedAt: string
  finishedAt: string | null
  bytesTotal: number | null
  bytesRead: number
  recordsRead: number
  inserted: number
  duplicates: number
  invalid: number
  errors: ImportError[]
  /** Why the file could not be read to its end (status failed). */
  failure: string | null
  durationMs: number | null
}

export interface ImportOptions {
  /** The file's name as the user knows it: shown in the import history. */
  source: string
  format: ImportFormat
  bytesTotal?: number | null
  /** Records per transaction: each batch lands completely or not at all. */
  batchSize?: number
  /**
   * Where records are parsed and validated: on a worker thread while this one writes (the
   * default for files of 1 MiB or more and streams of unknown size), or on this thread (small
   * uploads, where starting a worker would cost more than it saves).
   */
  parser?: 'worker' | 'thread'
  /**
   * Load in one transaction with the call log indexes rebuilt at the end (repo.beginBulkLoad):
   * several times faster for a large file, but nothing is committed, nor visible to other
   * connections, until the end. `auto` (what the CLI passes) does so when the file holds at least
   * BULK_MIN_RECORDS and about as many records as the store; the default is batches.
   */
  bulk?: boolean | 'auto'
  /** Called after each batch with the report so far. */
  onProgress?: (report: ImportReport) => void
}

/**
 * Whether a file of `bytes` is worth a bulk load into a store of `stored` call logs: rebuilding
 * the indexes costs per stored row, keeping them up to date per loaded one (repo.beginBulkLoad).
 */
export function bulkPays(bytes: number | null, stored: number): boolean {
  if (bytes === null) return false
  const expected = bytes / BULK_BYTES_PER_RECORD
  return expected >= BULK_MIN_RECORDS && expected >= stored
}

const toReport = (row: repo.ImportRow): ImportReport => ({
  id: row.id,
  source: row.source,
  format: row.format,
  status: row.status,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  bytesTotal: row.bytes_total,
  bytesRead: row.bytes_read,
  recordsRead: row.records_read,
  inserted: row.inserted,
  duplicates: row.duplicates,
  invalid: row.invalid,
  errors: JSON.parse(row.errors) as ImportError[],
  failure: row.failure,
  durationMs: row.duration_ms,
})

export function createImportsService(db: Kysely<Database>, sqlite: BetterSqlite3.Database) {
  async function loadsInBulk(options: ImportOptions): Promise<boolean> {
    if (options.bulk !== 'auto') return options.bulk === true
    return options.bytesTotal != null && bulkPays(options.bytesTotal, await repo.countCallLogs(db))
  }

  /** Imports left "running" by a process that is gone were interrupted (killed, crashed). */
  async function reconcile(): Promise<void> {
    const dead = (await repo.runningImports(db)).filter((r) => isOrphanedRun(r.pid))
    if (dead.length) await repo.markInterrupted(db, dead.map((r) => r.id), new Date().toISOString())
  }

  return {
    /**
     * Streams call log records from `input` into the store: each record validated, refused ones
     * reported with their position, known ids skipped (importing a file twice adds nothing).
     * Batches commit with the import's counts, so a crash leaves the record true to the rows.
     * A file that cannot be read on (not an array, broken CSV) ends the import as failed; the
     * batches before it stay.
     */
    async importCallLogs(input: Readable, options: ImportOptions): Promise<ImportReport & { bulk: boolean }> {
      const started = performance.now()
      const now = new Date().toISOString()
      const row: repo.ImportRow = {
        id: randomUUID(),
        kind: 'call_logs',
        source: options.source,
        format: options.format,
        status: 'running',
        pid: process.pid,
        started_at: now,
        updated_at: now,
        finished_at: null,
        bytes_total: options.bytesTotal ?? null,
        bytes_read: 0,
        records_read: 0,
        inserted: 0,
        duplicates: 0,
        invalid: 0,
        errors: '[]',
        failure: null,
        duration_ms: null,
      }
      await repo.insertImport(db, row)
      const insert = repo.prepareCallLogInsert(db, sqlite, { import_id: row.id })
      const saveProgress = repo.prepareProgressUpdate(db, sqlite)
      const errors: ImportError[] = []
      const batchSize = options.batchSize ?? 20_000

      let bytesRead = 0
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          bytesRead += chunk.length
          done(null, chunk)
        },
      })
      input.on('error', (error) => counter.destroy(error))
      input.pipe(counter)

      const refuse = (record: number, line: number, reason: string) => {
        row.invalid++
        if (errors.length < MAX_REPORTED_ERRORS) errors.push({ record, line, reason })
      }
      const progress = () => ({
        bytes_read: bytesRead,
        records_read: row.records_read,
        inserted: row.inserted,
        duplicates: row.duplicates,
        invalid: row.invalid,
        errors: JSON.stringify(errors),
        updated_at: new Date().toISOString(),
      })
      const load = (await loadsInBulk(options)) ? repo.beginBulkLoad(sqlite) : null
      let pending: ParsedBatch[] = []
      let pendingRecords = 0
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
        repo.withCheckConstraintsOff(sqlite, insertRows)
        Object.assign(row, progress())
        saveProgress(row.id, row)
        load?.indexMessages()
      }
      // In bulk the whole import is one transaction already; otherwise each batch is one.
      const commit = load ? writeBatches : sqlite.transaction(() => repo.withFtsBatched(sqlite, writeBatches))
      const flush = () => {
        commit()
        pending = []
        pendingRecords = 0
        options.onProgress?.(toReport(row))
      }

      const small = options.bytesTotal != null && options.bytesTotal < WORKER_THRESHOLD_BYTES
      const parse = options.parser === 'thread' || (options.parser !== 'worker' && small) ? parsedBatches : parseInWorker
      try {
        try {
          for await (const batch of parse(counter, options.format, Math.min(PARSE_BATCH, batchSize))) {
            pending.push(batch)
            pendingRecords += batch.rows.length + batch.refused.length
            // In bulk there is no commit to spread out: writing each batch as it comes keeps this thread
            // from holding up the reader that feeds the parse worker.
            if (load || pendingRecords >= batchSize) flush()
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
      const end = { ...progress(), status: row.status, failure: row.failure, finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started) }
      Object.assign(row, end)
      await repo.finishImport(db, row.id, end)
      const report = toReport(row)
      options.onProgress?.(report)
      return { ...report, bulk: load !== null }
    },

    async list(limit = 50): Promise<ImportReport[]> {
      await reconcile()
      return (await repo.listImports(db, limit)).map(toReport)
    },

    async get(id: string): Promise<ImportReport> {
      await reconcile()
      const row = await repo.findImport(db, id)
      if (!row) throw new NotFoundError('Import')
      return toReport(row)
    },
  }
}

export type ImportsService = ReturnType<typeof createImportsService>
