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
import { consoleOf, startSync, stopSync, syncState } from './mirror-sync'
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

/** The explorer's first page, every 50 ms, until `until()` says stop; each query's time in ms. */
async function probeConsole(base: string, until: () => boolean): Promise<number[]> {
  const times: number[] = []
  const input = { filter: {}, limit: 100 }
  const trpc = consoleOf(base, TOKEN)
  while (!until()) {
    const started = performance.now()
    await trpc.query('callLogs.search', input)
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
      await startSync(mirror.url, remote.url, TOKEN)
      const began = performance.now()
      let state = 'pulling'
      const watch = (async () => {
        while (state === 'pulling' && performance.now() - began < PROBE_CAP_MS) {
          state = (await syncState(mirror.url, TOKEN)).state
          await sleep(500)
        }
      })()
      during = await probeConsole(mirror.url, () => state !== 'pulling' || performance.now() - began >= PROBE_CAP_MS)
      await watch
      syncedAtProbeEnd = await countLogs(syncedDb)
      await stopSync(mirror.url, remote.url, TOKEN)
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
analytics, trunks, provider details). Into a new store the CLI loads the call logs in bulk (docs/architecture.md,
"Pulling from a live backend"): secondary indexes and full-text triggers dropped, a commit every 100,000 rows, all
built at the end; the next window and one more are asked for while a window is handed over, and the windows
are fetched, decoded and checked on a worker thread while the CLI's thread stores the ones before.

Same-session comparison on 2026-11-27 (the heavy lock held, one helper's single test files beside it, load
average 1–4): main before the fetch worker took 87.4 s, 0.11× a floor of 9.3 s; the fetch worker for bulk loads
only, 82.4 s, 0.15× a floor of 12.4 s; the table above, every pull fetching on the worker and the rows moving to
the writer packed, 81.4 s, 0.12× a floor of 10.0 s. So about 7% off the pull's time, and the floor itself moves by
a third between runs: only ratios taken in one run say much. The gain is small because the storing thread was
already the bound (below): the worker takes decoding and checking off it, but on 2 cores it then competes with
the remote's server for the second core.

Before the bulk path (2026-11-25, the same bench on this machine under the same load from other work, load
average 3–7): the pull took 138.5 s, 7,221 records/s, 0.04× a floor of 172,147 records/s (on a quiet machine
on 2026-11-24: 88.9 s, 11,258 records/s, 0.07×). The floor itself moved with the load between the two runs
(5.8 s, then 8.1 s in the run that first measured the bulk pull, 60.7 s, 0.13×): against the faster floor that
pull is 0.10×. So 2.3× faster, from 0.04× to 0.10–0.13×.

Where the bulk pull's time goes (2026-11-25, \`node --cpu-prof bin/callscope.js pull --since 2000-01-01\` against
the same remote, 76 s under the profiler, the machine loaded as above): the CLI's one thread is busy 64 s of it;
the call log step runs from 2.5 s to 64 s, the index rebuild to about 71 s, the rest (sessions, analytics,
trunks, providers) about 5 s. Of the busy time: the inserts 11.2 s, the full-text indexing of each checkpoint's
messages (words and trigrams) 10.6 s, the 8 index builds at the end 7.0 s and the 10 commits about 3 s; fetching
and decoding the answers (\`getJson\`: text decoding and \`JSON.parse\`) 7.8 s, checking the records
(\`checkCallLog\`, zod) 7.9 s, garbage collection 6.6 s; 12.4 s idle, waiting on the remote. Asking one window
ahead cut the pull from 68.9 s to 62.6 s in back-to-back runs, for 4,242 requests instead of 3,779: windows
planned ahead have the width of the last one, and those that meet denser hours come back full and are asked
again in halves. Committing at checkpoints costs the commits' 3 s (5%) against one transaction, and is what
lets a killed pull resume.

The bound: SQLite's own work for these rows (inserts, full-text indexes, index builds: about 32 s here) is
already about twice the 12–16 s that 0.5× of the floor (172,147 or 122,976 records/s here) allows for everything, and it is the store ceiling that
"Import into a new database" measures (82,379 records/s on a quiet machine, 0.49× of the floor there). Fetching,
decoding and checking add about 16 s on the same thread, and the remote's server needs the second core. So 0.5×
is out of reach on 2 cores for any pull that stores and indexes what it fetches. The fetch worker takes the
decoding and checking (about 16 s) and its garbage off the storing thread, which is then left with SQLite's
32 s and the unpacking: the pull's own bound becomes that thread, 1,000,296 ÷ 32 s ≈ 31,000 records/s, about 0.18–0.25×
of the floors measured here (122,976–172,147 records/s), if the worker and the remote's server share the second core
without making it wait. They need about 16 s and the remote's own serving of 4,242 pages, so on 2 cores the two
sides are near even and the pull can reach the store's bound only when nothing else runs: 16,470 records/s on
2026-11-25 was 0.53× of that bound, the run above 0.40×. Deferring the full-text indexing of each checkpoint to
the end (as the store ceiling does; resume would still hold, since the load's row keeps \`indexed_seq\` and the next
open indexes from there) should not help here, by this argument, not measured: the indexing should cost about the
same in ten parts or in one (FTS5 flushes and merges its segments by size either way), and at the end it would run
with nothing to overlap it, where at a checkpoint the worker and the remote work meanwhile. The checkpoint interval (100,000 rows, 10 commits,
about 3 s, 5%) stays: fewer commits would save at most those 3 s, against more refetching after a kill.

The console while a sync writes: a mirror \`serve\` keeps the remote in sync (its first cycle pulls every call
log) while a client asks it for the explorer's first page (tRPC \`callLogs.search\`, 100 rows) every 50 ms;
then the sync is switched off and the same number of queries is the floor. ${syncedAtProbeEnd ? `${Number(syncedAtProbeEnd).toLocaleString('en-US')} call logs were stored when the probe ended` : ''}.

| console query | queries | p50 ms | p99 ms | max ms |
|---|---:|---:|---:|---:|
| while the sync writes | ${d.n} | ${d.p50.toFixed(1)} | ${d.p99.toFixed(1)} | ${d.max.toFixed(1)} |
| sync off (floor) | ${i.n} | ${i.p50.toFixed(1)} | ${i.p99.toFixed(1)} | ${i.max.toFixed(1)} |

A sync stores window by window with every index live; its windows are fetched, decoded and checked on the fetch
worker too, so the mirror's own thread only hands packed rows on to its writer (its /healthz waits are in
"Responsiveness"). What is left here is SQLite's: the writer's commits and the readers' queries share the disk
and the two cores (before the worker, on 2026-11-27: p99 45.6 ms while the sync wrote, 14.5 ms off).
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
