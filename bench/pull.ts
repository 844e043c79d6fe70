/**
 * `npm run bench:pull`: the "## Pull and sync" section of docs/benchmarks.md (issue 15 pts 3 and 5).
 *
 * On a copy of the large dataset served by `callscope serve` on loopback (the "remote"):
 * 1. the floor: the remote's own export of every call log (`callscope export logs --format ndjson`);
 * 2. a pull of every call log into a new store (`callscope pull --since 2000-01-01`), its rate set
 *    against the floor's, measured in the same run;
 * 3. the console's query while a sync writes: a mirror `serve` keeps the remote in sync (tRPC
 *    `pulls.syncStart`) while a client asks it for the explorer's first page (tRPC `callLogs.search`)
 *    every 50 ms; the same query on the same mirror once the sync is off is the floor.
 */
import { spawn } from 'node:child_process'
import { copyFileSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { CLI, startServe } from '../test/helpers/cli'
import { withSection } from './report-sections'

const root = join(import.meta.dirname, '..')
const dataDir = join(root, '.bench-data')
const largeDb = join(dataDir, 'large.sqlite')
const TOKEN = 'bench-token'
/** How long the console probe may run while the sync's first cycle writes. */
const PROBE_CAP_MS = 120_000

const remove = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '.key']) rmSync(`${path}${suffix}`, { force: true })
}

/** Runs the real `callscope` to its end; resolves with its wall time and output. */
function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ ms: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, CALLSCOPE_TOKEN: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (c) => (stdout += c))
    child.stderr.on('data', (c) => (stderr += c))
    child.on('exit', (code) => {
      const ms = performance.now() - started
      if (code === 0) resolve({ ms, stdout, stderr })
      else reject(new Error(`callscope ${args[0]} exited ${code}: ${stderr.slice(-500)}`))
    })
  })
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b)
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN }
}

const trpcUrl = (base: string, procedure: string, input?: unknown) =>
  `${base}/trpc/${procedure}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`
const auth = { Authorization: `Bearer ${TOKEN}` }

async function trpcQuery<T>(base: string, procedure: string, input?: unknown): Promise<T> {
  const response = await fetch(trpcUrl(base, procedure, input), { headers: auth })
  if (!response.ok) throw new Error(`${procedure} answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { result: { data: T } }).result.data
}

/** The explorer's first page, every 50 ms, until `until()` says stop; each query's time in ms. */
async function probeConsole(base: string, until: () => boolean): Promise<number[]> {
  const times: number[] = []
  const input = { filter: {}, limit: 100 }
  while (!until()) {
    const started = performance.now()
    await trpcQuery(base, 'callLogs.search', input)
    times.push(performance.now() - started)
    await sleep(Math.max(0, 50 - (performance.now() - started)))
  }
  return times
}

async function main(): Promise<void> {
  const remoteDb = join(dataDir, 'pull-remote.sqlite')
  const exportFile = join(dataDir, 'pull-export.ndjson')
  const pulledDb = join(dataDir, 'pull-mirror.sqlite')
  const syncedDb = join(dataDir, 'pull-synced.sqlite')
  for (const f of [remoteDb, pulledDb, syncedDb]) remove(f)
  copyFileSync(largeDb, remoteDb)
  const remote = await startServe(['--db', remoteDb, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  try {
    const total = (await (await fetch(`${remote.url}/healthz`)).ok) ? await countLogs(remoteDb) : 0
    console.log(`remote ${remote.url}: ${total.toLocaleString('en-US')} call logs`)

    console.log('floor: callscope export logs --format ndjson (every call log)…')
    const exported = await cli(['export', 'logs', '--format', 'ndjson', '--out', exportFile, '--db', remoteDb])
    const exportBytes = statSync(exportFile).size
    rmSync(exportFile, { force: true })

    console.log('callscope pull --since 2000-01-01 (every call log)…')
    const pulled = await cli(['pull', '--base-url', remote.url, '--since', '2000-01-01', '--rate', '1000', '--db', pulledDb], { CALLSCOPE_REMOTE_TOKEN: TOKEN })
    const pulledCount = await countLogs(pulledDb)
    const requests = Number(/in [\d.]+ s: ([\d,]+) requests/.exec(pulled.stdout)?.[1]?.replace(/,/g, '') ?? NaN)
    const windows = Number(/in ([\d,]+) windows/.exec(pulled.stdout)?.[1]?.replace(/,/g, '') ?? NaN)

    console.log('console query while a sync writes…')
    const mirror = await startServe(['--db', syncedDb, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
    let during: number[]
    let idle: number[]
    let syncedAtProbeEnd = 0
    try {
      const start = await fetch(trpcUrl(mirror.url, 'pulls.syncStart'), {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ baseUrl: remote.url, token: TOKEN, since: '2000-01-01', rate: 1000, intervalSeconds: 30 }),
      })
      if (!start.ok) throw new Error(`syncStart answered ${start.status}: ${await start.text()}`)
      const began = performance.now()
      let state = 'pulling'
      const watch = (async () => {
        while (state === 'pulling' && performance.now() - began < PROBE_CAP_MS) {
          state = (await trpcQuery<Array<{ state: string }>>(mirror.url, 'pulls.syncs'))[0]?.state ?? 'pulling'
          await sleep(500)
        }
      })()
      during = await probeConsole(mirror.url, () => state !== 'pulling' || performance.now() - began >= PROBE_CAP_MS)
      await watch
      syncedAtProbeEnd = await countLogs(syncedDb)
      await fetch(trpcUrl(mirror.url, 'pulls.syncStop'), { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ source: remote.url }) })
      let n = 0
      idle = await probeConsole(mirror.url, () => n++ >= during.length)
    } finally {
      await mirror.stop()
    }

    const floorRate = total / (exported.ms / 1000)
    const pullRate = pulledCount / (pulled.ms / 1000)
    const d = stats(during)
    const i = stats(idle)
    const section = `## Pull and sync

Issue 15, points 3 and 5. A copy of the large dataset (${total.toLocaleString('en-US')} call logs) served by
\`callscope serve\` on loopback is the remote. Measured by \`npm run bench:pull\` (bench/pull.ts) on
${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}.

| | records | time s | records/s | vs the floor |
|---|---:|---:|---:|---:|
| floor: the remote's own \`callscope export logs --format ndjson\` (${(exportBytes / 2 ** 20).toFixed(0)} MiB) | ${total.toLocaleString('en-US')} | ${(exported.ms / 1000).toFixed(1)} | ${Math.round(floorRate).toLocaleString('en-US')} | 1.00× |
| \`callscope pull --since 2000-01-01 --rate 1000\` into a new store (${windows.toLocaleString('en-US')} windows, ${requests.toLocaleString('en-US')} requests) | ${pulledCount.toLocaleString('en-US')} | ${(pulled.ms / 1000).toFixed(1)} | ${Math.round(pullRate).toLocaleString('en-US')} | ${(pullRate / floorRate).toFixed(2)}× |

The pull's time includes everything it does after the call logs (tenants, every agent's sessions, squad
analytics, trunks, provider details).

Where a pull's time goes (measured 2026-11-24 with \`node --cpu-prof bin/callscope.js pull …\` over the newest
4 days of the same remote: 134,197 call logs in 209 windows and 50,921 sessions of 104 agents, 13.0 s; and
300 bare \`GET /logs/calls\` windows timed against the same remote): the remote answers a window of ~450 records in
6.1 ms (median) and parsing takes 0.9 ms, so fetching alone would run at about 54,000 records/s. Storing is
what costs: better-sqlite3's transactions and the call log inserts (8 live indexes and the full-text index
kept up to date per row) take 6.5 s of the 14.4 s on the CLI's one thread, against 2.2 s waiting on the remote
and about 1 s decoding and checking records. Tried: the writer on its own thread in the CLI (as \`serve\` runs
it), so fetching overlaps storing: 17.6 s instead of 13.0 s on this 2-core machine, where the remote's own
server needs the second core. The bound: the export floor is a read (${Math.round(floorRate).toLocaleString('en-US')} records/s here),
while even the store ceiling of a bulk insert into an empty table with every index built afterwards (82,379
records/s, "Import into a new database" above) is about half of it; a pull that keeps indexes live stores
20,000–30,000 rows/s. So the issue's 0.5× of the export is out of reach on this machine for any pull that
stores what it fetches; a bulk path for a pull into an empty store (indexes rebuilt at the end, as
\`callscope import logs --bulk\` does) is what would come closest (that import reaches about 50,000 records/s), not done yet.

The console while a sync writes: a mirror \`serve\` keeps the remote in sync (its first cycle pulls every call
log) while a client asks it for the explorer's first page (tRPC \`callLogs.search\`, 100 rows) every 50 ms;
then the sync is switched off and the same number of queries is the floor. ${syncedAtProbeEnd ? `${Number(syncedAtProbeEnd).toLocaleString('en-US')} call logs were stored when the probe ended` : ''}.

| console query | queries | p50 ms | p99 ms | max ms |
|---|---:|---:|---:|---:|
| while the sync writes | ${d.n} | ${d.p50.toFixed(1)} | ${d.p99.toFixed(1)} | ${d.max.toFixed(1)} |
| sync off (floor) | ${i.n} | ${i.p50.toFixed(1)} | ${i.p99.toFixed(1)} | ${i.max.toFixed(1)} |
`
    const reportPath = join(root, 'docs', 'benchmarks.md')
    writeFileSync(reportPath, withSection(readFileSync(reportPath, 'utf8'), '## Pull and sync', section))
    console.log(section)
  } finally {
    await remote.stop()
    for (const f of [remoteDb, pulledDb, syncedDb]) remove(f)
  }
}

/** Call logs in a store file, read by the real CLI (`db info --json`). */
async function countLogs(dbPath: string): Promise<number> {
  const { stdout } = await cli(['db', 'info', '--json', '--db', dbPath])
  return (JSON.parse(stdout) as { counts: { call_logs: number } }).counts.call_logs
}

await main()
