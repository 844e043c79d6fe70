/**
 * The "## Responsiveness" section of docs/benchmarks.md: each long operation of
 * bench/responsiveness.ts on a copy of the large dataset, once with `serve --readers 0` (every
 * query on the main thread, as before issue 19) and once as `serve` runs by default (a writer
 * thread and one reader per core). `npm run bench` writes it; `npm run bench:responsiveness`
 * (bench/responsiveness-run.ts) writes it alone.
 */
import { copyFileSync, rmSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { startServe } from '../test/helpers/cli'
import { writeSample } from './import'
import { longOperations, measureResponsiveness, type ResponsivenessRow } from './responsiveness'
import { SYNC_RECORDS, SYNC_ROW_NAME, syncRow } from './responsiveness-sync'

/** Each long operation on a copy of the large dataset (the import writes), with the probe beside it. */
async function responsivenessRows(largeDb: string, dataDir: string, token: string, readers?: number): Promise<ResponsivenessRow[]> {
  const copy = join(dataDir, 'responsiveness.sqlite')
  const importFile = join(dataDir, 'responsiveness-50k.ndjson')
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true })
  copyFileSync(largeDb, copy)
  writeSample(largeDb, importFile, 50_000)
  const serveArgs = readers === undefined ? [] : ['--readers', String(readers)]
  const server = await startServe(['--db', copy, '--no-seed', ...serveArgs], { CALLSCOPE_TOKEN: token })
  // BENCH_ONLY=<words> runs only the operations whose name holds them (while working on one).
  const chosen = (name: string) => name.includes(process.env.BENCH_ONLY ?? '')
  const rows: ResponsivenessRow[] = []
  try {
    for (const operation of longOperations(importFile).filter((o) => chosen(o.name))) {
      console.log(`  ${operation.name}`)
      rows.push(await measureResponsiveness(server.url, token, operation))
    }
    // The sync's mirror is the server under the probe; this one, on the same copy, is its remote.
    if (chosen(SYNC_ROW_NAME)) {
      console.log(`  ${SYNC_ROW_NAME}`)
      rows.push(await syncRow(server.url, dataDir, token, serveArgs))
    }
  } finally {
    await server.stop()
    for (const file of [copy, `${copy}-wal`, `${copy}-shm`, importFile]) rmSync(file, { force: true })
  }
  return rows
}

const row = (x: ResponsivenessRow, name: string, when: string) =>
  `| ${name} | ${when} | ${x.operationMs.toFixed(0)} | ${x.probes} | ${x.probeP50.toFixed(1)} | ${x.probeP99.toFixed(1)} | ${x.longestWait.toFixed(1)} | ${x.resets} | ${x.longestWait <= 50 && x.probeP99 <= 20 ? 'yes' : '**no**'} |`

const within = (x: ResponsivenessRow) => x.longestWait <= 50 && x.probeP99 <= 20
const figures = (x: ResponsivenessRow) => `longest ${x.longestWait.toFixed(0)} ms, p99 ${x.probeP99.toFixed(0)} ms`

/** What the table says, generated with it so that it stays true: which rows meet the aim now, and against what before. */
function reading(before: ResponsivenessRow[], now: ResponsivenessRow[]): string {
  const over = now.filter((r) => !within(r))
  const blocked = before.filter((r) => !within(r)).length
  const sync = now.findIndex((r) => r.name === SYNC_ROW_NAME)
  return `Reading (generated with the table): now ${now.length - over.length} of ${now.length} operations are within the aim${
    over.length ? `; over it: ${over.map((r) => `${r.name} (${figures(r)})`).join('; ')}` : ''
  }. Before, ${blocked} of ${before.length} were over it: with every query on the main thread, a probe waits for whole
queries. The count by a key without an index, its stream, the query-language search and export now run on the reader
threads, and the main thread only forwards their answers${
    sync < 0 ? '' : `; the sync's mirror stores each window on its writer thread, while its fetch worker fetches, decodes and checks the next (${figures(now[sync]!)} now, ${figures(before[sync]!)} before)`
  }.`
}

export async function responsivenessSection(largeDb: string, dataDir: string, token: string): Promise<string> {
  console.log('Responsiveness: /healthz every 20 ms while one long operation runs…')
  const before = await responsivenessRows(largeDb, dataDir, token, 0)
  const now = await responsivenessRows(largeDb, dataDir, token)
  return `## Responsiveness

While one long operation runs on the server (a copy of the large dataset), a probe sends \`GET /healthz\` every
20 ms on its own keep-alive connection (bench/responsiveness.ts). A probe's time is how long the server kept
a trivial request waiting. Issue 19's aim: longest wait ≤ 50 ms, p99 ≤ 20 ms. Each operation runs twice in this
run: "before" with \`serve --readers 0\` (every query on the main thread, as before issue 19), "now" as \`serve\`
runs by default: writes on the writer thread, reads on one reader thread per core, no SQL on the main thread.
Written by \`npm run bench\` or, alone, \`npm run bench:responsiveness\` (${new Date().toISOString().slice(0, 10)}; load average
${loadavg().map((l) => l.toFixed(1)).join(', ')} at the end of the run, on ${cpus().length} cores).

The count by \`details.language\` (a key without an index) reads every line's details; \`countByProgress\` is the same
count as the console's panel streams it (Server-Sent Events, read to its last, complete answer); the query-language
search \`details.language:xx\` matches nothing, so it reads every line, to the end or until its 2 s budget stops it
(then a 400 naming the slow term: it ran its whole course). The sync row probes another server: a mirror \`serve\` (new store, the same
\`--readers\` as the row's) whose "Keep in sync" pulls from the server of the other rows until the mirror has stored
${SYNC_RECORDS.toLocaleString('en-US')} call logs (counted in its file by the bench), then is switched off; the remote answering the pull
shares the 2 cores. Its "before" is the mirror with \`--readers 0\`: each window's rows stored on the main thread, as
every write was before issue 19.

| running | | its time ms | probes | probe p50 ms | probe p99 ms | longest wait ms | probe connections reset | within the aim |
|---|---|---:|---:|---:|---:|---:|---:|---|
${now.map((r, i) => [row(before[i]!, r.name, 'before'), row(r, '', 'now')].join('\n')).join('\n')}

${reading(before, now)}

A reset probe connection is the blocked main thread's other cost: after a long block Node's keep-alive timer
of the probe's connection fires before the request waiting on it is read, and the client sees ECONNRESET
(the probe then retries on a new connection; its wait counts from the first send).
`
}
