import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DatabaseHandle } from '../../db/connection'
import { migrateToLatest } from '../../db/migrate'
import { copySqliteToPostgres } from '../../db/pg-copy'
import { SeedError, type SeedOptions, type SeedResult } from '../../seed'
import { seedJob } from './database.write-jobs'

/** Opens a SQLite store at `path` the way the service opens its own (writer thread and readers when it can). */
export type OpenScratchStore = (path: string) => Promise<DatabaseHandle>

/**
 * Demo data for a PostgreSQL store: the seed (seed/, written for SQLite's raw connection) runs
 * into a scratch SQLite store in a temporary folder, on its writer thread, and its rows are copied
 * into the PostgreSQL store through COPY (db/pg-copy.ts). The same seed, scale and anchor give the
 * very rows a SQLite store gets, which the parity test relies on. The target must be empty.
 */
export async function seedPostgres(target: DatabaseHandle, options: SeedOptions, openScratch: OpenScratchStore): Promise<SeedResult> {
  if (!target.pg) throw new Error('seedPostgres needs a PostgreSQL store')
  if (options.reset) throw new SeedError('--reset is not available on a PostgreSQL store yet: seed an empty database')
  const dir = mkdtempSync(join(tmpdir(), 'callscope-seed-'))
  try {
    const scratch = await openScratch(join(dir, 'seed.sqlite'))
    try {
      await migrateToLatest(scratch.db)
      const { onProgress, ...rest } = options
      const started = performance.now()
      const result = await scratch.writer.run(seedJob, { ...rest, rowsOnly: true }, onProgress as ((value: unknown) => void) | undefined)
      await copySqliteToPostgres(scratch.db, target.pg)
      return { ...result, ms: Math.round(performance.now() - started) }
    } finally {
      await scratch.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
