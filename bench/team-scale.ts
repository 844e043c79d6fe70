/**
 * `npm run bench:team-scale` (issue 20 pt 5): the service on PostgreSQL holding 10,000,000 call logs
 * (`callscope seed --scale team`, bench/team-store.ts: loaded once, kept in .bench-data/pg-team)
 * beside SQLite holding the large demo store's 1,000,296 (a migrated copy of .bench-data/large.sqlite),
 * in the same run. Each store is opened as `serve` opens it (createService: SQLite with its reader
 * and writer threads, PostgreSQL with its pool), and read through the same doors: the REST app
 * (createHttpApp, `app.request`: routing, validation, the query and the JSON answer, without a
 * socket) and the console's service calls (search, facets, count-by). Then `callscope import logs`
 * of 50,000 new lines into each (COPY on PostgreSQL), removed again after. Writes the "## Team
 * scale" section of docs/benchmarks.md.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { sql } from 'kysely'
import { callLogFilterSchema, type CallLogFilterInput } from '../src-shared/schemas/call-log-search'
import { OWNER } from '../src-main/kit/access'
import { createHttpApp } from '../src-main/server/http-app'
import { storeKind } from '../src-main/db/store-kind'
import { createService, type Service } from '../src-main/service'
import { CLI } from '../test/helpers/cli'
import { findPgBin } from '../test/helpers/pg-cluster'
import { cliImport, writeSample } from './import'
import { migratedCopy, seconds } from './large-store-copy'
import { withSection } from './report-sections'
import { ensureTeamStore, SMOKE, startTeamCluster, TEAM_SEED, TEAM_SERVER_SETTINGS, type TeamLoad } from './team-store'

const root = join(import.meta.dirname, '..')
const largeDb = join(root, '.bench-data', 'large.sqlite')
const sqliteCopy = join(root, '.bench-data', SMOKE ? 'team-scale-smoke.sqlite' : 'team-scale-sqlite.sqlite')
const TOKEN = 'team-scale-bench'
/** Runs of each REST page (p99 is the 100th of 101); the console's reads, some of which count every line, get 11 (p99 is then the slowest). */
const PAGE_RUNS = SMOKE ? 3 : Number(process.env.BENCH_RUNS ?? 101)
const CONSOLE_RUNS = SMOKE ? 3 : Number(process.env.BENCH_CONSOLE_RUNS ?? 11)
const IMPORT_RECORDS = SMOKE ? 2_000 : 50_000
const WARMUP = 2

interface Timing {
  p50: number
  p99: number
  runs: number
  /** The budget's message, when a measured run was stopped by it (warm-up runs aside), and how many were. */
  stopped?: string
  stops: number
  shape: string
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * q) - 1)]!

async function time(runs: number, read: () => Promise<string>): Promise<Timing> {
  const times: number[] = []
  let shape = ''
  let stopped: string | undefined
  let stops = 0
  for (let i = 0; i < runs + WARMUP; i++) {
    const t = performance.now()
    let stop: string | undefined
    try {
      shape = await read()
    } catch (error) {
      // Stopped at the query budget (db/query-budget.ts): the console shows that message instead.
      stop = (error as Error).message
    }
    if (i < WARMUP) continue
    times.push(performance.now() - t)
    if (stop) {
      stops++
      stopped = stop
    }
  }
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), runs, stopped, stops, shape }
}

/** What each store's cases are built from: read from its own data. */
interface Landmarks {
  newest: string
  oldest: string
  agent: string
  squad: string
}

async function landmarks(service: Service): Promise<Landmarks> {
  const db = service.db
  const range = await db.selectFrom('call_logs').select((eb) => [eb.fn.max('timestamp').as('newest'), eb.fn.min('timestamp').as('oldest')]).executeTakeFirstOrThrow()
  // The busiest agent and squad of the last week: the ones a support engineer opens first.
  const weekBefore = new Date(Date.parse(String(range.newest)) - 7 * 86_400_000).toISOString()
  const agent = await db.selectFrom('call_logs').select('agent_id').where('timestamp', '>=', weekBefore).where('agent_id', 'is not', null)
    .groupBy('agent_id').orderBy(sql`count(*)`, 'desc').limit(1).executeTakeFirstOrThrow()
  const squad = await db.selectFrom('conversations').select('squad_id').where('squad_id', 'is not', null)
    .groupBy('squad_id').orderBy(sql`count(*)`, 'desc').limit(1).executeTakeFirstOrThrow()
  return { newest: String(range.newest), oldest: String(range.oldest), agent: agent.agent_id!, squad: squad.squad_id! }
}

const daysBefore = (iso: string, days: number) => new Date(Date.parse(iso) - days * 86_400_000).toISOString()
const daysAfter = (iso: string, days: number) => new Date(Date.parse(iso) + days * 86_400_000).toISOString()

interface Case {
  name: string
  kind: 'page' | 'console'
  read: (service: Service, get: (path: string) => Promise<string>, at: Landmarks) => Promise<string>
}

const rows = (body: string) => `${(JSON.parse(body) as unknown[]).length} lines`
const q = (params: Record<string, string>) => new URLSearchParams(params).toString()

const search = async (service: Service, filter: CallLogFilterInput) => {
  const page = await service.callLogs.search(OWNER, callLogFilterSchema.parse(filter), undefined, 200)
  return `${page.rows.length} lines`
}

const CASES: Case[] = [
  { name: '`GET /logs/calls?limit=100` (the newest lines)', kind: 'page', read: async (_, get) => rows(await get(`/logs/calls?limit=100`)) },
  {
    name: '`GET /logs/calls` by agent, the last 7 days, `limit=100`', kind: 'page',
    read: async (_, get, at) => rows(await get(`/logs/calls?${q({ agent_id: at.agent, start_date: daysBefore(at.newest, 7), end_date: at.newest, limit: '100' })}`)),
  },
  {
    name: '`GET /logs/calls` by agent, the last 7 days, `limit=1000`', kind: 'page',
    read: async (_, get, at) => rows(await get(`/logs/calls?${q({ agent_id: at.agent, start_date: daysBefore(at.newest, 7), end_date: at.newest, limit: '1000' })}`)),
  },
  {
    name: '`GET /logs/calls` by agent, the oldest 7 days of the data, `limit=100`', kind: 'page',
    read: async (_, get, at) => rows(await get(`/logs/calls?${q({ agent_id: at.agent, start_date: at.oldest, end_date: daysAfter(at.oldest, 7), limit: '100' })}`)),
  },
  {
    name: '`GET /logs/calls`, the last day (every agent), `limit=1000`', kind: 'page',
    read: async (_, get, at) => rows(await get(`/logs/calls?${q({ start_date: daysBefore(at.newest, 1), end_date: at.newest, limit: '1000' })}`)),
  },
  { name: '`GET /squads/{busiest squad}/analytics`', kind: 'page', read: async (_, get, at) => `${(await get(`/squads/${at.squad}/analytics`)).length} bytes` },
  { name: 'search `q=timeout` (whole word, full text), first 200', kind: 'console', read: (s) => search(s, { q: 'timeout' }) },
  { name: 'search `imeout OR "rate limit"` (substring, trigram), first 200', kind: 'console', read: (s) => search(s, { query: 'imeout OR "rate limit"' }) },
  { name: 'search `level:error "failed after"` (a phrase), the last 7 days, first 200', kind: 'console', read: (s, _, at) => search(s, { query: 'level:error "failed after"', from: daysBefore(at.newest, 7), to: at.newest }) },
  { name: 'search `details.language:fr` (a details key without an index), the last day, first 200', kind: 'console', read: (s, _, at) => search(s, { query: 'details.language:fr', from: daysBefore(at.newest, 1), to: at.newest }) },
  {
    name: 'facets, the last day (a bare time range)', kind: 'console',
    read: async (s, _, at) => `${(await s.callLogs.facets(OWNER, callLogFilterSchema.parse({ from: daysBefore(at.newest, 1), to: at.newest }))).agents.length} agents`,
  },
  { name: 'facets, `level:error` (all time)', kind: 'console', read: async (s) => `${(await s.callLogs.facets(OWNER, callLogFilterSchema.parse({ query: 'level:error' }))).agents.length} agents` },
  { name: 'facets, no filter (every line)', kind: 'console', read: async (s) => `${(await s.callLogs.facets(OWNER, callLogFilterSchema.parse({}))).agents.length} agents` },
  { name: 'histogram, no filter (every line)', kind: 'console', read: async (s) => `${(await s.callLogs.histogram(OWNER, callLogFilterSchema.parse({}))).buckets.length} buckets` },
  { name: 'the Overview (every tenant)', kind: 'console', read: async (s) => `${(await s.overview.get(OWNER)).counts.call_logs} lines counted` },
  {
    name: 'count by level, the last 7 days', kind: 'console',
    read: async (s, _, at) => `${(await s.callLogs.countBy(OWNER, callLogFilterSchema.parse({ from: daysBefore(at.newest, 7), to: at.newest }), 'level', 5)).groups.length} groups`,
  },
]

interface StoreRun {
  label: string
  lines: number
  bytes: number
  timings: Timing[]
  importRate: number
}

interface OpenStore {
  run: StoreRun
  service: Service
  get: (path: string) => Promise<string>
  at: Landmarks
}

async function openStore(label: string, dbPath: string, sizeOf: (service: Service) => Promise<number>): Promise<OpenStore> {
  const service = await createService({ dbPath, seedNewDatabase: false, envToken: TOKEN })
  const app = createHttpApp({ service, version: 'bench' })
  const get = async (path: string) => {
    const response = await app.request(path, { headers: { Authorization: `Bearer ${TOKEN}` } })
    const body = await response.text()
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${body.slice(0, 200)}`)
    return body
  }
  const lines = (await service.info()).counts.call_logs ?? 0
  const run: StoreRun = { label, lines, bytes: await sizeOf(service), timings: [], importRate: 0 }
  return { run, service, get, at: await landmarks(service) }
}

/**
 * Each case on one store, then on the other, before the next case: whatever else the machine does
 * weighs on both sides of a ratio alike.
 */
async function measureBoth(stores: OpenStore[]): Promise<void> {
  for (const c of CASES) {
    for (const { run, service, get, at } of stores) {
      const timing = await time(c.kind === 'page' ? PAGE_RUNS : CONSOLE_RUNS, () => c.read(service, get, at))
      console.log(`${run.label} | ${c.name} | p50 ${timing.p50.toFixed(1)} ms | p99 ${timing.p99.toFixed(1)} ms | ${timing.stopped ?? timing.shape}`)
      run.timings.push(timing)
    }
  }
}

/** `callscope import logs` of the sample into the store; the command's own rate. */
const importRate = (file: string, db: string) => cliImport(file, db, { expectNew: IMPORT_RECORDS, timeoutMs: 1_800_000 }).rate

/** Takes the imported lines out again (the seeded stores hold no imported line), so a rerun measures the same store. */
async function removeImported(dbPath: string): Promise<void> {
  const service = await createService({ dbPath, seedNewDatabase: false, readers: 0 })
  try {
    await service.db.transaction().execute(async (tx) => {
      if (storeKind(tx) === 'postgres') {
        await sql`delete from call_log_ids where (id, source) in (select id, source from call_logs where import_id is not null)`.execute(tx)
      }
      await tx.deleteFrom('call_logs').where('import_id', 'is not', null).execute()
      await tx.deleteFrom('imports').execute()
      // Lines are never deleted by the service, so PostgreSQL's day counts (pg 0004) follow inserts only: counted again.
      if (storeKind(tx) === 'postgres') await sql`select callscope_count_call_logs()`.execute(tx)
    })
  } finally {
    await service.close()
  }
}

const fixed = (v: number) => (v < 10 ? v.toFixed(1) : v.toFixed(0))
const ms = (t: Timing) => `${fixed(t.p50)}${t.stops ? ` (${t.stops} of ${t.runs} stopped at the budget)` : ''}`
const ms99 = (t: Timing) => fixed(t.p99)
const gb = (bytes: number) => `${(bytes / 2 ** 30).toFixed(1)} GiB`

function report(pg: StoreRun, lite: StoreRun, load: TeamLoad, copyNote: string, started: string): string {
  const n = (v: number) => v.toLocaleString('en-US')
  const table = CASES.map((c, i) => {
    const a = pg.timings[i]!
    const b = lite.timings[i]!
    const ratio = a.stops || b.stops ? '' : (a.p50 / b.p50).toFixed(2)
    return `| ${c.name} | ${ms(a)} | ${ms99(a)} | ${ms(b)} | ${ms99(b)} | ${ratio} | ${a.shape || 'no answer'} / ${b.shape || 'no answer'} |`
  })
  return `## Team scale: PostgreSQL at 10 million call logs

\`npm run bench:team-scale\` (bench/team-scale.ts), started ${started}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? 'cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version},
${postgresVersion()}.

- **PostgreSQL**: database \`team\` of a local cluster seeded by \`callscope seed --db postgres://… --scale team --seed 1
  --anchor 2026-11-20T12:00:00Z\`: ${n(pg.lines)} call logs over 120 days (10 tenants, 160 agents), ${gb(pg.bytes)} on disk.
  Loaded once (bench/team-store.ts) in ${seconds(load.wallMs)} on ${load.finishedAt.slice(0, 10)}, the seed's scratch SQLite store then COPY, indexes
  built after the rows. Server settings: ${TEAM_SERVER_SETTINGS.join(', ')}; fsync, synchronous_commit and full_page_writes on.
- **SQLite**: a migrated copy of the large demo store (${copyNote}): ${n(lite.lines)} call logs over 35 days, ${gb(lite.bytes)}.
- Each store opened as \`serve\` opens it (reader threads on SQLite, the pool on PostgreSQL), read one request at a time
  through the REST app (\`app.request\`: routing, validation, SQL, JSON) or the console's service calls, as the owner.
  REST pages ${PAGE_RUNS} runs each, the console's reads ${CONSOLE_RUNS}, after ${WARMUP} unmeasured, each case on PostgreSQL then on SQLite
  before the next; milliseconds. With ${CONSOLE_RUNS} runs "p99" is the slowest.
  Cases are built from each store's own data (its busiest agent and squad of the last week, its newest and oldest days).

| read | PostgreSQL 10M p50 | p99 | SQLite 1M p50 | p99 | PG ÷ SQLite (p50) | answer (PG / SQLite) |
|---|---:|---:|---:|---:|---:|---|
${table.join('\n')}

Import by COPY: \`callscope import logs\` of ${n(IMPORT_RECORDS)} new lines (the large dataset's first lines under new ids) into each
store as it is (indexes kept up to date), the command's own rate, one run: PostgreSQL at 10M ${n(pg.importRate)} records/s,
SQLite at 1M ${n(lite.importRate)} records/s (${(pg.importRate / lite.importRate).toFixed(2)}×). The imported lines are deleted after.

Load average at the end of the run: ${loadavg().map((v) => v.toFixed(1)).join(', ')} (1, 5 and 15 minutes). What the figures say is in the next section.
`
}

/** The version the cluster runs: startPgCluster starts the newest installed server (/usr/lib/postgresql/<version>/bin). */
const postgresVersion = () => `PostgreSQL ${basename(dirname(findPgBin() ?? 'unknown/none'))}`

async function main() {
  const started = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  const cluster = await startTeamCluster()
  try {
    const load = await ensureTeamStore(cluster, console.log)
    const { copiedMs, migratedMs } = SMOKE ? { copiedMs: null, migratedMs: 0 } : await migratedCopy(largeDb, sqliteCopy)
    const copyNote = copiedMs === null ? 'reused' : `copied and migrated in ${seconds(copiedMs + migratedMs)}`
    const url = cluster.urlOf('team')
    const pg = await openStore('PostgreSQL', url, async (s) => Number((await sql<{ n: string }>`select pg_database_size(current_database()) as n`.execute(s.db)).rows[0]!.n))
    // The smoke run reads a small SQLite store so it stays quick (its own seed): no figure.
    if (SMOKE && !existsSync(sqliteCopy)) spawnSync(process.execPath, [CLI, 'seed', '--db', sqliteCopy, ...TEAM_SEED], { stdio: 'inherit' })
    const lite = await openStore('SQLite', sqliteCopy, async () => statSync(sqliteCopy).size)
    try {
      await measureBoth([pg, lite])
    } finally {
      await pg.service.close()
      await lite.service.close()
    }
    const pgRun = pg.run
    const liteRun = lite.run

    const sample = join(tmpdir(), `team-scale-sample-${process.pid}.ndjson`)
    writeSample(largeDb, sample, IMPORT_RECORDS)
    try {
      pgRun.importRate = importRate(sample, url)
      await removeImported(url)
      liteRun.importRate = importRate(sample, sqliteCopy)
      await removeImported(sqliteCopy)
    } finally {
      rmSync(sample, { force: true })
    }
    const section = report(pgRun, liteRun, load, copyNote, started)
    console.log(section)
    const docs = join(root, 'docs', 'benchmarks.md')
    if (!SMOKE) writeFileSync(docs, withSection(readFileSync(docs, 'utf8'), '## Team scale: PostgreSQL at 10 million call logs', section))
  } finally {
    await cluster.stop()
  }
}

await main()
