/**
 * `npm run bench`: seeds the large demo dataset, starts the real server in a child process and
 * loads it with autocannon (32 connections, loopback, bounded in time). Each HTTP figure stands
 * beside its floor: the same SQL run directly on better-sqlite3 in this process, in the same run.
 * Writes docs/benchmarks.md.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { runCli, startServe } from '../test/helpers/cli'
import { type ConsoleTimings, SEARCH_WORDS, timeConsole } from './console'
import { floorOf, type Floor } from './floor'
import { benchImport } from './import'
import { loadTest, type LoadResult } from './load'
import { scenarios } from './scenarios'
import { sectionOf } from './report-sections'
import { soak, soakPaths, type SoakResult } from './soak'
import { responsivenessSection } from './responsiveness-section'
import { BENCH_SQUAD, buildSquadFixture } from './squad-fixture'

const root = join(import.meta.dirname, '..')
const dataDir = join(root, '.bench-data')
const dbPath = join(dataDir, 'large.sqlite')
const ANCHOR = '2026-11-20T12:00:00Z'
const TOKEN = 'bench-token'
const CONNECTIONS = 32
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)
const SOAK_CONNECTIONS = 64
const SOAK_S = Number(process.env.BENCH_SOAK_DURATION ?? 60)
/** Issue 19's aims for the HTTP cases: ms / request at saturation ÷ the SQL floor. */
const FLOOR_AIMS: Record<string, number> = {
  'call logs, agent + 7-day range, limit=1000': 1.5,
  'call logs, unfiltered, limit=100': 1.5,
  'agent sessions, first page (20)': 2,
}
/** The serve process's resident memory must stay under this through the soak (SQLite's page caches: 64 MiB for the writer, 32 MiB per reader). */
const SOAK_RSS_BOUND_MIB = 512

async function main() {
  mkdirSync(dataDir, { recursive: true })
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${dbPath}${suffix}`, { force: true })

  console.log('Seeding the large dataset…')
  const seedStarted = performance.now()
  // A million call logs with every index take a few minutes: well past runCli's default minute.
  const seed = runCli(['seed', '--db', dbPath, '--scale', 'large', '--seed', '1', '--anchor', ANCHOR], {}, 30 * 60_000)
  if (seed.status !== 0) throw new Error(`seed failed (${seed.status === null ? 'stopped after 30 min' : `exit ${seed.status}`}): ${seed.stderr}`)
  const seedWallMs = performance.now() - seedStarted
  console.log(seed.stdout.trim())

  const cases = scenarios(dbPath)
  const floors: Floor[] = cases.map((c) => floorOf(dbPath, c))

  const server = await startServe(['--db', dbPath, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  const results: Array<{ name: string; load: LoadResult; floor: Floor }> = []
  let consoleTimes: ConsoleTimings
  let soaked: SoakResult
  try {
    console.log('Console: call logs page on the large dataset…')
    consoleTimes = await timeConsole(server, TOKEN)
    for (const [i, c] of cases.entries()) {
      console.log(`Load: ${c.name}`)
      const load = await loadTest(`${server.url}${c.path}`, TOKEN, CONNECTIONS, DURATION_S, server.child.pid)
      results.push({ name: c.name, load, floor: floors[i]! })
    }
    console.log(`Soak: ${SOAK_CONNECTIONS} connections, ${SOAK_S} s of mixed reads…`)
    soaked = await soak(server.url, server.child.pid!, TOKEN, soakPaths(dbPath), SOAK_CONNECTIONS, SOAK_S)
  } finally {
    await server.stop()
  }

  const responsiveness = await responsivenessSection(dbPath, dataDir, TOKEN)

  // Squad analytics: one squad with 100,000 sessions in the default 30-day period, without and
  // with 50,000 older sessions of the same squad.
  console.log('Squad analytics on 100,000 sessions…')
  const squadCases: Array<{ label: string; service: number[]; http: number[] }> = []
  for (const history of [0, 50_000]) {
    const squadDb = join(dataDir, `squad-100k-${history}.sqlite`)
    await buildSquadFixture(squadDb, { history })
    const squadServer = await startServe(['--db', squadDb, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
    let http: number[]
    try {
      http = await sequentialTimes(`${squadServer.url}/squads/${BENCH_SQUAD}/analytics`, TOKEN, 21)
    } finally {
      await squadServer.stop()
    }
    const label = history === 0 ? '100,000 sessions, all in the period' : `same + ${history.toLocaleString('en-US')} older sessions`
    squadCases.push({ label, service: await serviceTimes(squadDb, 21), http })
  }

  console.log('Import: 200,000 call logs…')
  const imports = await benchImport(dbPath, dataDir)
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  const rate = (values: number[]) => `${median(values).toLocaleString('en-US')} | ${Math.min(...values).toLocaleString('en-US')} | ${Math.max(...values).toLocaleString('en-US')}`
  const importFloor = median(imports.writerFloor)

  const rows = results.map(({ name, load, floor }) => {
    const perRequest = 1000 / load.requestsPerSecond
    const cpu = load.cpuMsPerRequest ?? Number.NaN
    const main = load.mainThreadCpuMsPerRequest ?? Number.NaN
    const aim = FLOOR_AIMS[name]
    const within = aim === undefined ? '' : perRequest / floor.medianMs <= aim ? `yes (≤ ${aim}×)` : `**no** (aim ≤ ${aim}×)`
    return `| ${name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50.toFixed(1)} | ${load.p99.toFixed(1)} | ${load.non2xx} | ${perRequest.toFixed(2)} | ${cpu.toFixed(2)} | ${floor.medianMs.toFixed(2)} | ${(perRequest / floor.medianMs).toFixed(1)}× | ${(cpu / floor.medianMs).toFixed(1)}× | ${main.toFixed(3)} | ${(main / floor.medianMs).toFixed(1)}× | ${within} |`
  })
  const cpu = cpus()
  const report = `# Benchmarks

Generated by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}.
Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${process.platform}.

## Demo data

\`callscope seed --scale large --seed 1 --anchor ${ANCHOR}\` into a new file: ${(seedWallMs / 1000).toFixed(1)} s wall time for the whole command.

\`\`\`
${seed.stdout.trim()}
\`\`\`

## HTTP listener

The real server (\`callscope serve\`, child process, as it runs by default: one reader thread per core, a writer
thread, no SQL on the main thread) on loopback, loaded by autocannon with ${CONNECTIONS} connections for ${DURATION_S} s
per case after a short warm-up. Times in ms. The floor is the rows of the same query read directly on better-sqlite3
in the benchmark process, one thread (median of repeated runs): what no server can beat. "ms / request" is the
server's time per request at saturation (1000 / requests per second): issue 19's aim is ≤ 1.5× the floor for the
call log pages, ≤ 2× for the sessions page. "CPU ms / request" is the server's CPU time (all its threads, from
/proc) over the measured run ÷ requests: the work a request costs, which more cores divide. autocannon shares the
machine's ${cpus().length} cores with the server, so p50 and p99 under ${CONNECTIONS} connections are mostly time spent queueing.
The REST listings are JSON built by SQLite on the reader thread and handed to the main thread as bytes
(src-main/db/json-reads.ts), which only sends them. "Main thread CPU ms / request" is the part of the CPU time
spent on the thread that answers every request (HTTP parsing, routing, token check, validation, handing the
query to a reader, sending): the one part more cores do not divide, so 1000 ÷ it is the most requests/s any
machine gets from one process. Where the rest of each request goes is in "Where the time goes" below.

| case | requests/s | p50 | p99 | non-2xx | ms / request | CPU ms / request | floor median | ms / request ÷ floor | CPU ÷ floor | main thread CPU ms / request | main thread ÷ floor | within the aim |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
${rows.join('\n')}

## Soak

${SOAK_CONNECTIONS} keep-alive connections for ${SOAK_S} s on the same server after the cases above, each connection
cycling through ${soakPaths(dbPath).length} reads (bench/soak.ts): call-log pages of 50 to 1,000 records with and without
filters, two sessions pages, a tenant, a squad's analytics, an LLM provider and the SIP trunks. Resident memory of the
serve process sampled every 500 ms; the bound is ${SOAK_RSS_BOUND_MIB} MiB, of which SQLite's page caches may hold 64 MiB (the writer's) and 32 MiB per reader thread.

| requests | requests/s | p50 ms | p99 ms | errors (socket, timeout, non-2xx) | RSS before MiB | RSS peak MiB | RSS after MiB | within bound |
|---:|---:|---:|---:|---:|---:|---:|---:|---|
| ${soaked.requests.toLocaleString('en-US')} | ${soaked.requestsPerSecond.toFixed(0)} | ${soaked.p50.toFixed(0)} | ${soaked.p99.toFixed(0)} | ${soaked.errors} | ${soaked.rssBeforeMiB.toFixed(0)} | ${soaked.rssPeakMiB.toFixed(0)} | ${soaked.rssAfterMiB.toFixed(0)} | ${soaked.rssPeakMiB <= SOAK_RSS_BOUND_MIB && soaked.errors === 0 ? 'yes' : '**no**'} |

${responsiveness}
## Squad analytics

\`GET /squads/{squad_id}/analytics\` (default period: the last 30 days) for one squad with 100,000 sessions, all
in the period, and about 12,000 transfers, beside another squad of 30,000 sessions (bench/squad-fixture.ts).
Median of 21 sequential calls after a first, cold one. The second case adds 50,000 older sessions of the
same squad, outside the period: the analytics scan a squad's sessions through one covering index, so older
history costs time too.

| case | measured | median ms | min | max |
|---|---|---:|---:|---:|
${squadCases.map((c) => `| ${c.label} | service call in-process | ${fmt(c.service)} |\n| ${c.label} | HTTP request, one connection | ${fmt(c.http)} |`).join('\n')}

## Console

The Call logs page in Debian's Chromium (headless) against the server above, on the large dataset
(${(1_000_000).toLocaleString('en-US')}+ records), ${consoleTimes.firstRows.length} runs, each in a new tab. Aims: first rows within 1 s of navigation,
a filter change re-rendered within 200 ms. A filter change starts fetching its first rows when the
router moves (before React renders), cancels the facets and histogram of the filter it leaves (the server
stops counting at its next slice, src-main/lib/time-slicer.ts), and counts the new filter's aggregates
only once its rows are in.

| measured | median ms | min | max |
|---|---:|---:|---:|
| navigation to the first rows on screen (page load included) | ${fmt(consoleTimes.firstRows)} |
| level filter change (error) to filtered rows | ${fmt(consoleTimes.levelFilter)} |
| full-text search change (a word with 400–7,700 matches: ${SEARCH_WORDS.join(', ')}; + level warning) to matching rows, typing debounce excluded | ${fmt(consoleTimes.textFilter)} |

## Import

\`callscope import logs\` (NDJSON, ${imports.records.toLocaleString('en-US')} records of the large dataset under new ids,
${(imports.bytes / 2 ** 20).toFixed(0)} MiB), ${imports.intoEmpty.length} runs, records/s as the command reports them (reading,
validation, dedupe on id, the 16 call log indexes, the two full-text indexes (words and substrings), the import's record), and over the whole
command's wall time (process start, loading the TypeScript sources through tsx, opening the store, exit). Into a new
database the command loads in bulk (one transaction, secondary indexes and full-text indexes rebuilt at the end) with a
worker thread parsing while the main thread writes; \`--bulk never\` commits batches of 20,000 with every index kept up
to date; into the large dataset it does the same (the file is smaller than the store). Floors, measured in the same
run, one for each of the two threads: the bulk load's SQLite work alone, on rows parsed and validated beforehand
("writer floor": the insert with its id index, the rebuild of 15 indexes and both full-text indexes), and the file read,
parsed and validated on the parse worker with nothing written ("parser floor"). An import overlaps the two, but
both want a core, and the index rebuild at the end has only the writer's. The "store ceiling" is SQLite's least work
for the same parsed rows in this schema: inserted with every call log index (the id's too) and trigger dropped,
then all 16 indexes and both full-text indexes built, one transaction. No import into this schema can pass it, since an
import also parses and must dedupe on the id as it loads. The "bare floor" is JSON.parse with an INSERT into a
table that has only the id's unique index, on one thread. The issue's aim is 100,000 records/s: the store ceiling
is ${median(imports.storeCeiling) < 100_000 ? 'below' : 'above'} it on this machine.

| measured | median records/s | min | max |
|---|---:|---:|---:|
| \`callscope import logs\` into a new database (bulk) | ${rate(imports.intoEmpty)} |
| the same runs, over the command's wall time | ${rate(imports.intoEmptyWall)} |
| \`callscope import logs --bulk never\` into a new database | ${rate(imports.intoEmptyBatched)} |
| the same file into a copy of the large dataset (batches; one run) | ${imports.intoLarge.toLocaleString('en-US')} | | |
| writer floor: bulk load of parsed rows, indexes and FTS rebuilt | ${rate(imports.writerFloor)} |
| parser floor: read, parse and validate on the worker, nothing written | ${rate(imports.parserFloor)} |
| store ceiling: parsed rows inserted with no index, then every index and FTS built | ${rate(imports.storeCeiling)} |
| bare floor: parse + insert, id index only | ${rate(imports.bareFloor)} |

Import into a new database ÷ writer floor: ${(median(imports.intoEmpty) / importFloor).toFixed(2)}; ÷ store ceiling: ${(median(imports.intoEmpty) / median(imports.storeCeiling)).toFixed(2)}.

Cases of the HTTP table:
${cases.map((c) => `- **${c.name}**: \`GET ${c.path.replace(/agent_id=[0-9a-f-]+/, 'agent_id=<busiest agent>').replace(/agents\/[0-9a-f-]+/, 'agents/<busiest agent>')}\``).join('\n')}
`
  const reportPath = join(root, 'docs', 'benchmarks.md')
  writeFileSync(reportPath, report + keptSections(reportPath, report))
  console.log(report)
}

/**
 * Sections other commands write into the same file (`npm run bench:readers`, `bench:pull`,
 * `bench:live`, `npm run fuzz`, …): every `## ` section of the previous file that this report does
 * not write itself, kept as it is, so a new bench command's section survives without a list to update.
 */
function keptSections(reportPath: string, report: string): string {
  if (!existsSync(reportPath)) return ''
  const previous = readFileSync(reportPath, 'utf8')
  const headings = (text: string) => text.split('\n').filter((line) => line.startsWith('## '))
  const own = new Set(headings(report))
  return headings(previous)
    .filter((heading) => !own.has(heading))
    .map((heading) => `\n${sectionOf(previous, heading)}\n`)
    .join('')
}

async function sequentialTimes(url: string, token: string, runs: number): Promise<number[]> {
  const get = () => fetch(url, { headers: { Authorization: `Bearer ${token}` } }).then((r) => {
    if (!r.ok) throw new Error(`${url}: ${r.status}`)
    return r.arrayBuffer()
  })
  await get()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await get()
    times.push(performance.now() - t0)
  }
  return times
}

async function serviceTimes(dbPath: string, runs: number): Promise<number[]> {
  const { createService } = await import('../src-main/service')
  const service = await createService({ dbPath, seedNewDatabase: false })
  const admin = { role: 'admin' as const, tenantId: null, tokenId: null }
  try {
    await service.squads.analytics(admin, BENCH_SQUAD, {})
    const times: number[] = []
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now()
      await service.squads.analytics(admin, BENCH_SQUAD, {})
      times.push(performance.now() - t0)
    }
    return times
  } finally {
    await service.close()
  }
}

function fmt(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b)
  return `${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} | ${sorted[0]!.toFixed(1)} | ${sorted.at(-1)!.toFixed(1)}`
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
