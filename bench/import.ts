import { randomUUID } from 'node:crypto'
import { copyFileSync, createReadStream, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { checkCallLog } from '../src-main/modules/call-logs/call-log-record'
import { CALL_LOG_COLUMNS, callLogValues, STORED_CALL_LOG_COLUMNS } from '../src-main/modules/call-logs/call-log-values'
import { prepareInsert, withIndexesDeferred, withRollbackJournal } from '../src-main/db/bulk-insert'
import { prepareIndexMessagesAfter } from '../src-main/db/message-indexes'
import { beginBulkLoad, prepareCallLogInsert, withCheckConstraintsOff } from '../src-main/modules/call-logs/call-logs.write.repo'
import { parseInWorker } from '../src-main/modules/imports/parse-in-worker'
import { unpackBatch } from '../src-main/modules/imports/parsed-batches'
import { createService } from '../src-main/service'
import { runCli } from '../test/helpers/cli'

export interface ImportTimings {
  records: number
  bytes: number
  /** `callscope import logs` into a new database (auto: a bulk load), records/s as the command reports them. */
  intoEmpty: number[]
  /** The same runs, records/s over the whole command's wall time: process start, opening the store, exit. */
  intoEmptyWall: number[]
  /** The same with `--bulk never`: committed batch by batch, indexes kept up to date row by row. */
  intoEmptyBatched: number[]
  /** The same file into a copy of the large dataset (1,000,000+ rows; auto: batches). */
  intoLarge: number
  /** Rows already parsed and validated, written as a bulk load (insert, rebuild indexes, FTS): the writer alone. */
  writerFloor: number[]
  /** The file read, parsed and validated on the parse worker, with nothing written: the parser alone. */
  parserFloor: number[]
  /**
   * SQLite's least work for the same rows in the real schema: parsed beforehand, inserted with every
   * call log index (the id's too) and trigger dropped, all rebuilt and the messages indexed at the end.
   */
  storeCeiling: number[]
  /** JSON.parse + INSERT into a table with only the id's unique index: what storing rows costs at least. */
  bareFloor: number[]
}

/** Real-looking records: the large dataset's own lines, under new ids so they are new anywhere. */
export function writeSample(largeDb: string, file: string, n: number): void {
  const db = new Database(largeDb, { readonly: true })
  const rows = db.prepare(`select ${CALL_LOG_COLUMNS.join(', ')} from call_logs order by seq limit ?`).all(n) as Array<Record<string, unknown>>
  db.close()
  writeFileSync(file, rows.map((r) => JSON.stringify({ ...r, id: randomUUID(), details: JSON.parse(r.details as string) })).join('\n') + '\n')
}

const ratePattern = /\(([\d,]+) records\/s\)/

export interface CliImportOptions {
  extra?: string[]
  /** Fails unless the command reports this many new records (a sample under new ids: all of them). */
  expectNew?: number
  timeoutMs?: number
}

/** `callscope import logs FILE --db DB`: the rate the command reports, and its wall time in ms. */
export function cliImport(file: string, db: string, { extra = [], expectNew, timeoutMs }: CliImportOptions = {}): { rate: number; wallMs: number } {
  const started = performance.now()
  const result = runCli(['import', 'logs', file, '--db', db, ...extra], {}, timeoutMs)
  const wallMs = performance.now() - started
  if (result.status !== 0) throw new Error(`import failed: ${result.stderr}`)
  const match = ratePattern.exec(result.stdout)
  if (!match) throw new Error(`no rate in: ${result.stdout}`)
  if (expectNew !== undefined && !result.stdout.includes(`${expectNew.toLocaleString('en-US')} new`)) throw new Error(`unexpected output: ${result.stdout}`)
  return { rate: Number(match[1]!.replace(/,/g, '')), wallMs }
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean)
/** Removes a database file and its WAL, shared-memory and journal files. */
export const removeDb = (db: string) => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${db}${suffix}`, { force: true })
}

/** The file's records parsed and validated, as the import's writer receives them. */
const parsedRows = (file: string) =>
  lines(file).map((line) => {
    const checked = checkCallLog(JSON.parse(line))
    if ('reason' in checked) throw new Error(checked.reason)
    return callLogValues(checked.row)
  })

/** The bulk path's SQLite work alone: values parsed and validated beforehand, outside the timing. */
async function writerFloor(file: string, db: string): Promise<number> {
  removeDb(db)
  const service = await createService({ dbPath: db, seedNewDatabase: false, readers: 0 })
  const { sqlite } = service.handle
  const rows = parsedRows(file)
  const insert = prepareCallLogInsert(service.db, sqlite, { import_id: 'bench' })
  const started = performance.now()
  const load = beginBulkLoad(sqlite)
  // As the import writes: rows validated by checkCallLog, CHECK constraints off.
  withCheckConstraintsOff(sqlite, () => {
    for (const values of rows) insert(values)
  })
  load.finish()
  const seconds = (performance.now() - started) / 1000
  await service.close()
  return Math.round(rows.length / seconds)
}

/**
 * No import into this schema can pass this: it also parses, and must dedupe on the id while
 * loading. The one writer thread does all of it, the rebuild with no parsing left to overlap.
 */
async function storeCeiling(file: string, db: string): Promise<number> {
  removeDb(db)
  const service = await createService({ dbPath: db, seedNewDatabase: false, readers: 0 })
  const { sqlite } = service.handle
  const rows = parsedRows(file).map((values) => [...values, 'bench'])
  const insert = prepareInsert(service.db, sqlite, 'call_logs', [...STORED_CALL_LOG_COLUMNS, 'import_id'])
  const started = performance.now()
  withRollbackJournal(sqlite, () =>
    sqlite.transaction(() => {
      withIndexesDeferred(sqlite, 'call_logs', () =>
        withCheckConstraintsOff(sqlite, () => {
          for (const values of rows) insert(values)
        }),
      )
      // Both message indexes, words and substrings, as an import builds them.
      prepareIndexMessagesAfter(sqlite)(0)
    })(),
  )
  const seconds = (performance.now() - started) / 1000
  await service.close()
  return Math.round(rows.length / seconds)
}

async function parserFloor(file: string, records: number): Promise<number> {
  const started = performance.now()
  let rows = 0
  for await (const batch of parseInWorker(createReadStream(file), 'ndjson', 2000)) rows += unpackBatch(batch).rows.length
  if (rows !== records) throw new Error(`parsed ${rows} of ${records} records`)
  return Math.round(records / ((performance.now() - started) / 1000))
}

async function bareFloor(file: string, db: string): Promise<number> {
  removeDb(db)
  const sqlite = new Database(db)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.exec(`create table bare (seq integer primary key, ${CALL_LOG_COLUMNS.map((c) => `${c} text`).join(', ')}); create unique index bare_id on bare(id)`)
  const statement = sqlite.prepare(`insert into bare (${CALL_LOG_COLUMNS.join(', ')}) values (${CALL_LOG_COLUMNS.map(() => '?').join(', ')}) on conflict(id) do nothing`)
  const texts = lines(file)
  const started = performance.now()
  const batch = sqlite.transaction((part: string[]) => {
    for (const line of part) {
      const r = JSON.parse(line) as Record<string, unknown>
      statement.run(CALL_LOG_COLUMNS.map((c) => (c === 'details' ? JSON.stringify(r.details) : (r[c] ?? null))))
    }
  })
  for (let i = 0; i < texts.length; i += 20_000) batch(texts.slice(i, i + 20_000))
  const seconds = (performance.now() - started) / 1000
  sqlite.close()
  return Math.round(texts.length / seconds)
}

/** Import speed of `callscope import logs` beside what the store itself allows, in the same run. */
export async function benchImport(largeDb: string, workDir: string, records = 200_000, runs = 3): Promise<ImportTimings> {
  const file = join(workDir, 'import-sample.ndjson')
  writeSample(largeDb, file, records)
  const db = join(workDir, 'import-target.sqlite')
  const timings: ImportTimings = { records, bytes: statSync(file).size, intoEmpty: [], intoEmptyWall: [], intoEmptyBatched: [], intoLarge: 0, writerFloor: [], parserFloor: [], storeCeiling: [], bareFloor: [] }
  for (let i = 0; i < runs; i++) {
    removeDb(db)
    const bulk = cliImport(file, db)
    timings.intoEmpty.push(bulk.rate)
    timings.intoEmptyWall.push(Math.round(records / (bulk.wallMs / 1000)))
    removeDb(db)
    timings.intoEmptyBatched.push(cliImport(file, db, { extra: ['--bulk', 'never'] }).rate)
    timings.writerFloor.push(await writerFloor(file, db))
    timings.parserFloor.push(await parserFloor(file, records))
    timings.storeCeiling.push(await storeCeiling(file, db))
    timings.bareFloor.push(await bareFloor(file, db))
  }
  removeDb(db)
  copyFileSync(largeDb, db)
  timings.intoLarge = cliImport(file, db).rate
  removeDb(db)
  rmSync(file, { force: true })
  return timings
}
