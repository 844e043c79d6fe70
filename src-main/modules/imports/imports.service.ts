import { randomUUID } from 'node:crypto'
import { Transform, type Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { formatBytes, restated, StoreDamagedError, type StoreFaultKind, storeFaultKind, StoreFullError } from '../../../src-shared/store-faults'
import { freeBytesBeside } from '../../db/store-faults'
import type { Database } from '../../db/schema'
import { forStore } from '../../db/store-kind'
import type { RunJob, StoreWriter } from '../../db/store-writer'
import { countCallLogs } from '../call-logs/call-logs.write.repo'
import { createRunLifecycle } from '../runs/run-lifecycle'
import type { ImportFormat } from './import-format'
import { bulkRoomNeeded } from './bulk-room'
import { type ImportReport, toReport } from './import-report'
import type { ImportEnd } from './import-sink'
import * as repo from './imports.repo'
import type { CopyBatch } from './copy-batches'
import { parseInWorker, parseInWorkerForCopy } from './parse-in-worker'
import { type AnyBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'
import { endImportJob, openImportJob, writeImportJob } from './imports.write-jobs'

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
  /**
   * The source the records are stored under (docs/api.md "Sources"): '' (the default) Callscope's
   * own, else a pulled backend's normalized base URL, for a laptop pushing what it pulled.
   */
  callLogSource?: string
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
  /**
   * The file's first bytes (up to a MiB), when the caller has them: a bulk import estimates from
   * them how many records the file holds, and so the room it needs (bulk-room.ts).
   */
  sample?: string
}

/** How an import ended, with whether it loaded in bulk and, when the store itself failed, how (REST 507, 503). */
export type ImportResult = ImportReport & { bulk: boolean; fault: StoreFaultKind | null }

/**
 * Whether a file of `bytes` is worth a bulk load into a store of `stored` call logs: rebuilding
 * the indexes costs per stored row, keeping them up to date per loaded one (beginBulkLoad).
 */
export function bulkPays(bytes: number | null, stored: number): boolean {
  if (bytes === null) return false
  const expected = bytes / BULK_BYTES_PER_RECORD
  return expected >= BULK_MIN_RECORDS && expected >= stored
}

/** A fault an import's sink reported (its kind and message) as the error the store's health notes. */
function storeFault(kind: StoreFaultKind, message: string, storePath: string): StoreFullError | StoreDamagedError {
  const details = { storePath, freeBytes: freeBytesBeside(storePath) }
  return kind === 'full' ? new StoreFullError(message, details) : new StoreDamagedError(message, details)
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
    call_log_source: options.callLogSource ?? '',
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

interface ImportWrite {
  row: repo.ImportRow
  bulk: boolean
  batchSize: number
  batches: AsyncIterable<AnyBatch | CopyBatch>
  bytesRead: () => number
  onProgress?: (report: ImportReport) => void
}

/**
 * Sends each parsed batch to the import's sink on the writing connection (imports.write-jobs.ts)
 * and ends it: completed, or failed with why (the file could not be read on, the store refused).
 */
async function writeImport(run: RunJob, w: ImportWrite): Promise<ImportEnd> {
  const { row } = w
  await run(openImportJob, { row, bulk: w.bulk, batchSize: w.batchSize })
  let readFailure: string | null = null
  try {
    for await (const batch of w.batches) {
      const { progress, failed } = await run(writeImportJob, { id: row.id, batch, bytesRead: w.bytesRead() })
      if (progress) w.onProgress?.(toReport({ ...row, ...progress }))
      if (failed) break
    }
  } catch (error) {
    readFailure = error instanceof ImportFormatError ? error.message : `could not read the file: ${(error as Error).message}`
  }
  return run(endImportJob, { id: row.id, readFailure, bytesRead: w.bytesRead() })
}

type Parser = (input: Readable, format: ImportFormat, batchSize: number) => AsyncGenerator<AnyBatch | CopyBatch>

/**
 * Where the records are parsed (see ImportOptions.parser). On a worker, the rows come as the store
 * takes them: packed for SQLite's writer thread, COPY text for a PostgreSQL server.
 */
function parserFor(db: Kysely<Database>, options: ImportOptions): Parser {
  const small = options.bytesTotal != null && options.bytesTotal < WORKER_THRESHOLD_BYTES
  if (options.parser === 'thread' || (options.parser !== 'worker' && small)) return parsedBatches
  return forStore<Parser>(db, { sqlite: (i, f, n) => parseInWorker(i, f, n), postgres: (i, f, n) => parseInWorkerForCopy(i, f, n) })
}

export function createImportsService(db: Kysely<Database>, writer: StoreWriter, { storePath = ':memory:' }: { storePath?: string } = {}) {
  const runs = createRunLifecycle(db, 'imports', 'Import', toReport)

  /**
   * Refuses a bulk import before it starts when the store's disk has less room than it needs: it
   * would fill the disk near its end, after all its work, and keep nothing.
   */
  function assertRoomForBulk(bytesTotal: number, options: ImportOptions): void {
    const free = freeBytesBeside(storePath)
    const needed = bulkRoomNeeded(bytesTotal, options.format, options.sample)
    if (free === null || free >= needed) return
    const details = { storePath, freeBytes: free, neededBytes: needed }
    throw new StoreFullError(
      `The import was not started: the disk holding the store has too little room for it (${storePath}; ${formatBytes(free)} free, about ${formatBytes(needed)} needed for ` +
        `${formatBytes(bytesTotal)} loaded in bulk). Nothing was stored. Make room on that disk, or import batch by batch (--bulk never), which keeps every batch that fits.`,
      details,
    )
  }

  async function loadsInBulk(options: ImportOptions): Promise<boolean> {
    // A PostgreSQL store has no bulk mode: COPY with the indexes live (pg-import-sink.ts).
    if (forStore(db, { sqlite: false, postgres: true })) return false
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
    async importCallLogs(input: Readable, options: ImportOptions): Promise<ImportResult> {
      const started = performance.now()
      const row = newImportRow(options)
      const bulk = await loadsInBulk(options)
      if (bulk && options.bytesTotal != null) assertRoomForBulk(options.bytesTotal, options)
      await repo.insertImport(db, row).catch((error: unknown) => {
        throw restated(error, 'The import')
      })
      const counted = countingBytes(input)
      const batchSize = options.batchSize ?? 20_000
      const batches = parserFor(db, options)(counted.stream, options.format, Math.min(PARSE_BATCH, batchSize))
      const write = (run: RunJob) => writeImport(run, { row, bulk, batchSize, batches, bytesRead: counted.bytesRead, onProgress: options.onProgress })
      // A bulk load is one transaction from the first job to the last: nothing else may write in
      // between. Batches commit one job at a time, and other writes take turns with them.
      const ended = bulk ? await writer.exclusive(write) : await write((job, args) => writer.run(job, args))
      const { fault, ...columns } = ended
      // The sink reports the store's fault instead of throwing it (it keeps the batches before);
      // the console's banner still has to say why writes fail.
      if (fault) writer.health?.note(storeFault(fault, columns.failure ?? '', storePath))
      const end = { ...columns, finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started) }
      Object.assign(row, end)
      try {
        await repo.finishImport(db, row.id, end)
      } catch (error) {
        // The disk that refused the records may refuse the record's end too (a WAL it cannot
        // checkpoint takes no write at all). The report stays true, the history shows the end and
        // writes it once the disk has room (run-lifecycle.ts); a success whose record cannot be
        // closed is still a failure to say.
        if (!fault || storeFaultKind(error) !== 'full') throw restated(error, 'Recording the end of the import')
        runs.endedUnrecorded(row.id, end)
      }
      const report = toReport(row)
      options.onProgress?.(report)
      return { ...report, bulk, fault }
    },

    list: (limit = 50): Promise<ImportReport[]> => runs.list(limit),

    get: (id: string): Promise<ImportReport> => runs.get(id),
  }
}

export type ImportsService = ReturnType<typeof createImportsService>
