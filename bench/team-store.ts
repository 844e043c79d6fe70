import { spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { CLI } from '../test/helpers/cli'
import { startPgCluster, type PgCluster } from '../test/helpers/pg-cluster'

/**
 * The team-scale benchmark's PostgreSQL store (issue 20 pt 5): a cluster kept in
 * .bench-data/pg-team between runs, holding database `team` seeded with `callscope seed --scale
 * team` (10,000,000 call logs: the seed writes a scratch SQLite store, then COPY). Loading it takes
 * most of an hour on 2 cores, so it is done once; how long it took is kept beside it (load.json).
 */

export const TEAM_DIR = join(import.meta.dirname, '..', '.bench-data', 'pg-team')
const LOAD_RECORD = join(TEAM_DIR, 'load.json')
/** A small store in a throwaway cluster, to check the scripts themselves (CALLSCOPE_BENCH_SMOKE=1): no figure. */
export const SMOKE = process.env.CALLSCOPE_BENCH_SMOKE === '1'
export const TEAM_SEED = ['--scale', SMOKE ? 'small' : 'team', '--seed', '1', '--anchor', '2026-11-20T12:00:00Z']

/**
 * What a team server on this 24 GiB machine would be given (the usual guidance: shared_buffers a
 * quarter of memory or less, the planner told the OS cache is large and the disk is an SSD), with
 * a server's durable defaults (fsync, synchronous_commit and full_page_writes on).
 */
export const TEAM_SERVER_SETTINGS = [
  'shared_buffers=4GB',
  'effective_cache_size=16GB',
  'work_mem=32MB',
  'maintenance_work_mem=1GB',
  'random_page_cost=1.1',
  'max_wal_size=8GB',
]

export interface TeamLoad {
  /** The seed command's output (counts and its own phases). */
  output: string
  wallMs: number
  finishedAt: string
}

export function startTeamCluster(): Promise<PgCluster> {
  return SMOKE ? startPgCluster() : startPgCluster({ durable: true, keepIn: TEAM_DIR, server: TEAM_SERVER_SETTINGS })
}

/** Seeds database `team` unless a finished load is on record; returns the load's record. */
export async function ensureTeamStore(cluster: PgCluster, log: (line: string) => void): Promise<TeamLoad> {
  if (!SMOKE && existsSync(LOAD_RECORD)) return JSON.parse(readFileSync(LOAD_RECORD, 'utf8')) as TeamLoad
  // A load that did not finish leaves a partial database: start it again.
  await cluster.psql('drop database if exists team with (force)')
  await cluster.psql('create database team')
  log(`seeding ${cluster.urlOf('team')} ${TEAM_SEED.join(' ')} (most of an hour)`)
  const started = performance.now()
  const output = await runSeed(cluster.urlOf('team'))
  const load: TeamLoad = { output, wallMs: Math.round(performance.now() - started), finishedAt: new Date().toISOString() }
  if (!SMOKE) writeFileSync(LOAD_RECORD, JSON.stringify(load, null, 2))
  return load
}

function runSeed(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'seed', '--db', url, ...TEAM_SEED], { env: { ...process.env, CALLSCOPE_TOKEN: '' }, stdio: ['ignore', 'pipe', 'inherit'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      process.stdout.write(chunk)
    })
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`seed exited with ${code}`))))
  })
}

if (process.argv[1] === import.meta.filename) {
  const cluster = await startTeamCluster()
  try {
    const load = await ensureTeamStore(cluster, console.log)
    console.log(JSON.stringify(load, null, 2))
  } finally {
    await cluster.stop()
  }
}
