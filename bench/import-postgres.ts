/**
 * `npm run bench:import-postgres`: import rate by COPY into a PostgreSQL store beside SQLite's
 * (issue 20), in the same run: the 200,000-record sample bench/import.ts writes (the large
 * dataset's own lines under new ids), imported with `callscope import logs` into a new store,
 * three times each, medians quoted. SQLite both ways (auto: a bulk load; `--bulk never`: batches
 * with live indexes, the way PostgreSQL always writes). PostgreSQL: a throwaway cluster
 * (test/helpers/pg-cluster.ts) with a server's durable defaults (fsync on), a new database per run.
 * Rates are the command's own (records over the import's time, not process start).
 */
import { cpus, totalmem } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { findPgBin, startPgCluster } from '../test/helpers/pg-cluster'
import { cliImport, removeDb, writeSample } from './import'

const largeDb = join(import.meta.dirname, '..', '.bench-data', 'large.sqlite')
/** A smaller sample and one run only to check the script itself (CALLSCOPE_BENCH_SMOKE=1): not a figure. */
const smoke = process.env.CALLSCOPE_BENCH_SMOKE === '1'
const RECORDS = smoke ? 2_000 : 200_000
const RUNS = smoke ? 1 : 3

const importRate = (file: string, db: string, extra: string[] = []) => cliImport(file, db, { extra, expectNew: RECORDS, timeoutMs: 600_000 }).rate

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

const dir = mkdtempSync(join(tmpdir(), 'callscope-bench-pg-'))
const file = join(dir, 'import-sample.ndjson')
writeSample(largeDb, file, RECORDS)
const cluster = await startPgCluster({ durable: true })
const rates = { sqliteBulk: [] as number[], sqliteBatched: [] as number[], postgres: [] as number[] }
try {
  for (let i = 0; i < RUNS; i++) {
    const db = join(dir, 'target.sqlite')
    removeDb(db)
    rates.sqliteBulk.push(importRate(file, db))
    removeDb(db)
    rates.sqliteBatched.push(importRate(file, db, ['--bulk', 'never']))
    removeDb(db)
    await cluster.psql(`create database bench_${i}`)
    rates.postgres.push(importRate(file, cluster.urlOf(`bench_${i}`)))
    await cluster.psql(`drop database bench_${i}`)
  }
} finally {
  await cluster.stop()
  rmSync(dir, { recursive: true, force: true })
}
// The server startPgCluster runs: the newest installed (/usr/lib/postgresql/<version>/bin).
const pgVersion = basename(dirname(findPgBin() ?? 'unknown/none'))
console.log(JSON.stringify({ date: new Date().toISOString(), cpus: cpus().length, cpu: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), postgresql: pgVersion, records: RECORDS, rates, medians: Object.fromEntries(Object.entries(rates).map(([k, v]) => [k, median(v)])) }, null, 2))
