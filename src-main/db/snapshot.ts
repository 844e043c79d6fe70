import { existsSync, rmSync, statSync } from 'node:fs'
import type BetterSqlite3 from 'better-sqlite3'

export interface SnapshotResult {
  path: string
  sizeBytes: number
}

/**
 * A consistent copy of the whole database in one file (VACUUM INTO: a read transaction, so
 * writers may go on; no WAL beside it; free pages dropped). It opens anywhere as a demo pack:
 * `callscope serve --db FILE`. An existing file is kept unless `overwrite` says otherwise.
 */
// SQLite-only: VACUUM INTO on the raw better-sqlite3 handle; the copy is a SQLite file, with its -wal/-shm/-journal siblings cleared first.
export function snapshotDatabase(sqlite: BetterSqlite3.Database, file: string, overwrite = false): SnapshotResult {
  if (existsSync(file)) {
    if (!overwrite) throw new Error(`${file} already exists (use --force to replace it)`)
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true })
  }
  sqlite.prepare('vacuum into ?').run(file)
  return { path: file, sizeBytes: statSync(file).size }
}
