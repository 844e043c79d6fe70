import { randomUUID } from 'node:crypto'
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { prepareCallLogInsert, withFtsBatched } from '../src-main/modules/imports/imports.repo'
import { createService } from '../src-main/service'
import { runCli } from '../test/helpers/cli'

export interface ImportTimings {
  records: number
  bytes: number
  /** `callscope import logs` into a new database, records/s as the command reports them. */
  intoEmpty: number[]
  /** The same file into a copy of the large dataset (1,000,000+ rows and their indexes). */
  intoLarge: number
  /** JSON.parse + the same INSERT … ON CONFLICT and batched FTS, on the same schema, no validation or bookkeeping. */
  storeFloor: number[]
  /** JSON.parse + INSERT into a table with only the id's unique index: what storing rows costs at least. */
  bareFloor: number[]
}

const COLUMNS = ['id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id', 'session_id', 'call_id', 'details', 'user_id', 'trace_id', 'request_id'] as const

/** Real-looking records: the large dataset's own lines, under new ids so they are new anywhere. */
function writeSample(largeDb: string, file: string, n: number): void {
  const db = new Database(largeDb, { readonly: true })
  const rows = db.prepare(`select ${COLUMNS.join(', ')} from call_logs order by seq limit ?`).all(n) as Array<Record<string, unknown>>
  db.close()
  writeFileSync(file, rows.map((r) => JSON.stringify({ ...r, id: randomUUID(), details: JSON.parse(r.details as string) })).join('\n') + '\n')
}

const ratePattern = /\(([\d,]+) records\/s\)/

function cliImport(file: string, db: string): number {
  const result = runCli(['import', 'logs', file, '--db', db])
  if (result.status !== 0) throw new Error(`import failed: ${result.stderr}`)
  const match = ratePattern.exec(result.stdout)
  if (!match) throw new Error(`no rate in: ${result.stdout}`)
  return Number(match[1]!.replace(/,/g, ''))
}

async function floor(file: string, db: string, bare: boolean): Promise<number> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true })
  const service = await createService({ dbPath: db, seedNewDatabase: false })
  const { sqlite } = service.handle
  let insert: (values: unknown[]) => void
  if (bare) {
    sqlite.exec(`create table bare (seq integer primary key, ${COLUMNS.map((c) => `${c} text`).join(', ')}); create unique index bare_id on bare(id)`)
    const statement = sqlite.prepare(`insert into bare (${COLUMNS.join(', ')}) values (${COLUMNS.map(() => '?').join(', ')}) on conflict(id) do nothing`)
    insert = (values) => statement.run(values)
  } else {
    const run = prepareCallLogInsert(service.db, sqlite)
    insert = (values) => run(Object.fromEntries(COLUMNS.map((c, i) => [c, values[i]])) as never)
  }
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean)
  const started = performance.now()
  const batch = sqlite.transaction((part: string[]) => {
    const load = () => {
      for (const line of part) {
        const r = JSON.parse(line) as Record<string, unknown>
        insert(COLUMNS.map((c) => (c === 'details' ? JSON.stringify(r.details) : (r[c] ?? null))))
      }
    }
    if (bare) load()
    else withFtsBatched(sqlite, load)
  })
  for (let i = 0; i < lines.length; i += 20_000) batch(lines.slice(i, i + 20_000))
  const seconds = (performance.now() - started) / 1000
  await service.close()
  return Math.round(lines.length / seconds)
}

/** Import speed of `callscope import logs` beside what the store itself allows, in the same run. */
export async function benchImport(largeDb: string, workDir: string, records = 200_000, runs = 3): Promise<ImportTimings> {
  const file = join(workDir, 'import-sample.ndjson')
  writeSample(largeDb, file, records)
  const db = join(workDir, 'import-target.sqlite')
  const fresh = () => {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${db}${suffix}`, { force: true })
  }
  const timings: ImportTimings = { records, bytes: statSync(file).size, intoEmpty: [], intoLarge: 0, storeFloor: [], bareFloor: [] }
  for (let i = 0; i < runs; i++) {
    fresh()
    timings.intoEmpty.push(cliImport(file, db))
    timings.storeFloor.push(await floor(file, db, false))
    timings.bareFloor.push(await floor(file, db, true))
  }
  fresh()
  copyFileSync(largeDb, db)
  timings.intoLarge = cliImport(file, db)
  fresh()
  rmSync(file, { force: true })
  return timings
}
