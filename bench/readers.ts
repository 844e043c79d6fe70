/**
 * `npm run bench:readers` (issue 19, point 3): the REST cases of the main benchmark against `serve`
 * with 0 reader threads (every query on the main thread), 1, and one per core, in one run, beside
 * each case's SQL floor. Writes the "## Readers" section of docs/benchmarks.md (bench/run.ts keeps
 * it); needs the large dataset that `npm run bench` seeds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import { startServe } from '../test/helpers/cli'
import { floorOf } from './floor'
import { type LoadResult, loadTest } from './load'
import { withSection } from './report-sections'
import { scenarios } from './scenarios'

const root = join(import.meta.dirname, '..')
const dbPath = join(root, '.bench-data', 'large.sqlite')
const TOKEN = 'bench-token'
const CONNECTIONS = 32
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10)

async function main() {
  if (!existsSync(dbPath)) throw new Error(`${dbPath} is missing: run npm run bench first`)
  const cases = scenarios(dbPath)
  const floors = cases.map((c) => floorOf(dbPath, c))
  const counts = [...new Set([0, 1, availableParallelism()])]
  const loads: LoadResult[][] = cases.map(() => [])
  for (const readers of counts) {
    const server = await startServe(['--db', dbPath, '--no-seed', '--readers', String(readers)], { CALLSCOPE_TOKEN: TOKEN })
    try {
      for (const [i, c] of cases.entries()) {
        console.log(`readers ${readers}: ${c.name}`)
        loads[i]!.push(await loadTest(`${server.url}${c.path}`, TOKEN, CONNECTIONS, DURATION_S, server.child.pid))
      }
    } finally {
      await server.stop()
    }
  }
  const most = counts.at(-1)!
  const header = `| case | floor ms | ${counts.map((n) => `${n} readers: req/s (ms/req ÷ floor) · CPU ms/req · main thread`).join(' | ')} | ${most} ÷ 1 reader | ${most} ÷ 0 readers |`
  const rows = cases.map((c, i) => {
    const floor = floors[i]!.medianMs
    const cells = loads[i]!.map((l) => `${l.requestsPerSecond.toFixed(0)} (${(1000 / l.requestsPerSecond / floor).toFixed(1)}×) · ${l.cpuMsPerRequest?.toFixed(2) ?? '?'} · ${l.mainThreadCpuMsPerRequest?.toFixed(3) ?? '?'}`)
    const rate = (n: number) => loads[i]![counts.indexOf(n)]!.requestsPerSecond
    return `| ${c.name} | ${floor.toFixed(2)} | ${cells.join(' | ')} | ${(rate(most) / rate(1)).toFixed(2)} | ${(rate(most) / rate(0)).toFixed(2)} |`
  })
  const section = `## Readers

\`npm run bench:readers\` (bench/readers.ts) on ${new Date().toISOString().slice(0, 10)}: the HTTP cases above against \`serve --readers N\`
(0: every query on the main thread, as before issue 19; otherwise SELECTs on N reader threads and writes on the writer
thread), ${CONNECTIONS} connections, ${DURATION_S} s per case after a warm-up, in one run. "CPU ms/req" is the server's CPU
time over all its threads ÷ requests: the work per request, which is what more cores divide; "main thread" the
same for the thread that answers every request, which they do not. autocannon, the server's
main thread and its readers share the machine's ${availableParallelism()} cores, so the scaling ratio (requests/s with
${most} readers ÷ with 1) is small here; on a machine with N free cores the throughput of a case is bounded by
N ÷ its CPU ms/req and by the main thread's share of that work.

${header}
|---|---:|${counts.map(() => '---:').join('|')}|---:|---:|
${rows.join('\n')}
`
  const reportPath = join(root, 'docs', 'benchmarks.md')
  writeFileSync(reportPath, withSection(readFileSync(reportPath, 'utf8'), '## Readers', section))
  console.log(section)
}

await main()
