/**
 * A diagnostic for the responsiveness bench's import row (issue 19), not a bench: `npx tsx
 * bench/import-waits.ts [runs]`. Each run serves a fresh copy of the large dataset, probes
 * `/healthz` every 20 ms (bench/probe-process.mjs, as the bench does) while the row's 50,000 records are uploaded, and
 * prints each wait over 15 ms with its time from the upload's start, then every server thread's
 * CPU over the import with its nice value (from /proc), so a wait can be laid beside the threads
 * that ran then. Linux only.
 */
import { fork } from 'node:child_process'
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { startServe } from '../test/helpers/cli'
import { writeSample } from './import'
import { longOperations } from './responsiveness'

const dataDir = join(import.meta.dirname, '..', '.bench-data')
const largeDb = join(dataDir, 'large.sqlite')
const copy = join(dataDir, 'import-waits.sqlite')
const sample = join(dataDir, 'import-waits-50k.ndjson')
const TOKEN = 'bench-token'
const runs = Number(process.argv[2] ?? 3)

/** CPU ms so far of each thread of `pid`, by "tid nice". */
function threadCpu(pid: number): Map<string, number> {
  const cpu = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      // utime and stime in ticks of 10 ms; the nice value.
      cpu.set(`${tid} nice ${fields[16]}`, (Number(fields[11]) + Number(fields[12])) * 10)
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return cpu
}

if (!existsSync(largeDb)) throw new Error(`${largeDb} is missing: run npm run bench first`)
if (!existsSync(sample)) writeSample(largeDb, sample, 50_000)
const upload = longOperations(sample).find((o) => o.name.includes('POST /imports'))!
for (let run = 1; run <= runs; run++) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true })
  copyFileSync(largeDb, copy)
  const server = await startServe(['--db', copy, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  try {
    const prober = fork(join(import.meta.dirname, 'probe-process.mjs'), [`${server.url}/healthz`, '20'])
    await new Promise<void>((resolve) => prober.once('message', () => resolve()))
    const report = new Promise<{ waits: number[]; sentAt: number[] }>((resolve) => prober.on('message', (m) => typeof m === 'object' && resolve(m as { waits: number[]; sentAt: number[] })))
    const before = threadCpu(server.child.pid!)
    const started = Date.now()
    await upload.run(server.url, TOKEN)
    const ms = Date.now() - started
    const after = threadCpu(server.child.pid!)
    prober.send('stop')
    const { waits: measured, sentAt } = await report
    const waits = measured.map((wait, i) => [sentAt[i]!, wait] as const)
    const sorted = waits.map(([, wait]) => wait).sort((a, b) => a - b)
    const slow = waits.filter(([, wait]) => wait > 15).map(([at, wait]) => `${((at - started) / 1000).toFixed(2)} s: ${wait.toFixed(1)} ms`)
    console.log(`run ${run}: import ${ms} ms, ${waits.length} probes, p99 ${sorted[Math.floor(0.99 * sorted.length)]!.toFixed(1)} ms, longest ${sorted.at(-1)!.toFixed(1)} ms`)
    console.log(`  waits over 15 ms: ${slow.join(', ') || 'none'}`)
    const threads = [...after].map(([thread, cpu]) => [thread, cpu - (before.get(thread) ?? 0)] as const).filter(([, cpu]) => cpu > 0)
    console.log(`  thread CPU ms over the import: ${threads.map(([thread, cpu]) => `${thread}: ${cpu}`).join(', ')}`)
  } finally {
    await server.stop()
  }
}
for (const file of [copy, `${copy}-wal`, `${copy}-shm`]) rmSync(file, { force: true })
