import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseHandle } from '../../db/connection'
import { migrateToLatest } from '../../db/migrate'
import { copySqliteToPostgres } from '../../db/pg-copy'
import type pg from 'pg'
import { DOMAIN_TABLES, SEED_HELD_DATA, SeedError, type SeedOptions, type SeedResult } from '../../seed'
import { seedJob } from './database.write-jobs'

/** Opens a SQLite store at `path` the way the service opens its own (writer thread and readers when it can). */
export type OpenScratchStore = (path: string) => Promise<DatabaseHandle>

/**
 * What `seed --reset` replaces, as on SQLite (seed/index.ts): every call log, and the tenants,
 * agents, sessions, calls and the rest the seed writes; API tokens, settings, pulls and imports
 * are kept. Deleted in the seed's order, so a row that still refers to one (a tenant's token) stops
 * the reset as on SQLite. call_logs and the ids and day counts that go with it are truncated.
 */
async function emptySeededTables(client: pg.PoolClient): Promise<void> {
  await client.query('truncate call_logs, call_log_ids, call_log_day_counts')
  for (const table of DOMAIN_TABLES) await client.query(`delete from ${table}`)
}

/**
 * Demo data for a PostgreSQL store: the seed (seed/, written for SQLite's raw connection) runs
 * into a scratch SQLite store in a temporary folder, on its writer thread, and its rows are copied
 * into the PostgreSQL store through COPY (db/pg-copy.ts). The same seed, scale and anchor give the
 * very rows a SQLite store gets, which the parity test relies on. The target must be empty, or
 * `reset` asked for (emptySeededTables, in the copy's transaction).
 */
export async function seedPostgres(target: DatabaseHandle, options: SeedOptions, openScratch: OpenScratchStore): Promise<SeedResult> {
  if (!target.pg) throw new Error('seedPostgres needs a PostgreSQL store')
  // Refused before the scratch seed runs (minutes at the larger scales), as SQLite refuses it.
  const { rows } = await target.pg.query('select exists (select from tenants) or exists (select from call_logs) as held')
  if (rows[0].held && !options.reset) throw new SeedError(SEED_HELD_DATA)
  const dir = mkdtempSync(join(tmpdir(), 'callscope-seed-'))
  try {
    const scratch = await openScratch(join(dir, 'seed.sqlite'))
    try {
      await migrateToLatest(scratch.db)
      const { onProgress, ...rest } = options
      const started = performance.now()
      const result = await scratch.writer.run(seedJob, { ...rest, rowsOnly: true }, onProgress as ((value: unknown) => void) | undefined)
      await copySqliteToPostgres(scratch.db, target.pg, { emptyFirst: options.reset ? emptySeededTables : undefined })
      return { ...result, ms: Math.round(performance.now() - started) }
    } finally {
      await scratch.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
