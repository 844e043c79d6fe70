import { randomUUID } from 'node:crypto'
import { Transform, type Readable } from 'node:stream'
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { beginBulkLoad, countCallLogs, prepareCallLogInsert } from '../call-logs/call-logs.write.repo'
import { createRunLifecycle } from '../runs/run-lifecycle'
import type { ImportFormat } from './import-format'
import { type ImportReport, toReport } from './import-report'
import { createImportWriter } from './import-writer'
import * as repo from './imports.repo'
import { parseInWorker } from './parse-in-worker'
import { parsedBatches } from './parsed-batches'

export { MAX_REPORTED_ERRORS, type ImportError, type ImportReport } from './import-report'

/** Below this size a file is parsed on the writing thread: a worker takes longer to start. */
const WORKER_THRESHOLD_BYTES = 1 << 20
/** Below this many records a bulk load saves too little to be worth holding one long transaction. */
const BULK_MIN_RECORDS = 50_000
/** Bytes per record assumed when estimating a file's records from its size; real exports run 400–700. */
const BULK_BYTES_PER_RECORD = 1000
/** Records per message from the parser: small enough to keep the writer busy from the start. */
const PARSE_BATCH = 2000

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
   * Load in one transaction with the call log indexes rebuilt at the end (beginBulkLoad in
   * call-logs.write.repo): several times faster for a large file, but nothing is committed, nor visible to other
   * connections, until the end. `auto` (what the CLI passes) does so when the file holds at least
   * BULK_MIN_RECORDS and about as many records as the store; the default is batches.
   */
  bulk?: boolean | 'auto'
  /** Called after each batch with the report so far. */
  onProgress?: (report: ImportReport) => void
}

/**
 * Whether a file of `bytes` is worth a bulk load into a store of `stored` call logs: rebuilding
 * the indexes costs per stored row, keeping them up to date per loaded one (beginBulkLoad).
 */
export function bulkPays(bytes: number | null, stored: number): boolean {
  if (bytes === null) return false
  const expected = bytes / BULK_BYTES_PER_RECORD
  return expected >= BULK_MIN_RECORDS && expected >= stored
}

/** The record of an import that starts now, by this process. */
function newImportRow(options: ImportOptions): repo.ImportRow {
  const now = new Date().toISOString()
  return {
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
}

/** `input` passed through, its bytes counted; an error on `input` ends the counted stream too. */
function countingBytes(input: Readable): { stream: Readable; bytesRead: () => number } {
  let bytesRead = 0
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytesRead += chunk.length
      done(null, chunk)
    },
  })
  input.on('error', (error) => counter.destroy(error))
  input.pipe(counter)
  return { stream: counter, bytesRead: () => bytesRead }
}

/** Where the records are parsed (see ImportOptions.parser). */
function parserFor(options: ImportOptions): typeof parsedBatches {
  const small = options.bytesTotal != null && options.bytesTotal < WORKER_THRESHOLD_BYTES
  return options.parser === 'thread' || (options.parser !== 'worker' && small) ? parsedBatches : parseInWorker
}

export function createImportsService(db: Kysely<Database>, sqlite: BetterSqlite3.Database) {
  const runs = createRunLifecycle(db, 'imports', 'Import', toReport)

  async function loadsInBulk(options: ImportOptions): Promise<boolean> {
    if (options.bulk !== 'auto') return options.bulk === true
    return options.bytesTotal != null && bulkPays(options.bytesTotal, await countCallLogs(db))
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
      const row = newImportRow(options)
      await repo.insertImport(db, row)
      const insert = prepareCallLogInsert(db, sqlite, { import_id: row.id })
      const saveProgress = repo.prepareProgressUpdate(db, sqlite)
      const counted = countingBytes(input)
      const load = (await loadsInBulk(options)) ? beginBulkLoad(sqlite) : null
      const batchSize = options.batchSize ?? 20_000
      const writer = createImportWriter({ sqlite, row, insert, saveProgress, load, batchSize, bytesRead: counted.bytesRead, onProgress: options.onProgress })
      await writer.writeAll(parserFor(options)(counted.stream, options.format, Math.min(PARSE_BATCH, batchSize)))
      const end = { ...writer.progress(), status: row.status, failure: row.failure, finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started) }
      Object.assign(row, end)
      await repo.finishImport(db, row.id, end)
      const report = toReport(row)
      options.onProgress?.(report)
      return { ...report, bulk: load !== null }
    },

    list: (limit = 50): Promise<ImportReport[]> => runs.list(limit),

    get: (id: string): Promise<ImportReport> => runs.get(id),
  }
}

export type ImportsService = ReturnType<typeof createImportsService>
