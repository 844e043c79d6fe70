import { randomBytes } from 'node:crypto'
import { existsSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Database } from './schema'

export interface SnapshotFile {
  path: string
  sizeBytes: number
}

const SIBLINGS = ['', '-wal', '-shm', '-journal']

/** Removes a database file and the WAL, shared-memory and journal files SQLite keeps beside it. */
export function removeDatabaseFiles(file: string): void {
  for (const suffix of SIBLINGS) rmSync(`${file}${suffix}`, { force: true })
}

/** Refuses an existing FILE unless `overwrite`, in which case it and its siblings go first. */
export function clearSnapshotTarget(file: string, overwrite: boolean): void {
  if (!existsSync(file)) return
  if (!overwrite) throw new Error(`${file} already exists (use --force to replace it)`)
  removeDatabaseFiles(file)
}

/**
 * A consistent copy of a whole database in one new file. VACUUM INTO is a read transaction (writers
 * may go on), writes no WAL beside the copy, and builds every page afresh: free pages and what
 * deleted rows left in them are not copied, which is what lets a pack leave data out for good.
 */
// SQLite-only: VACUUM INTO on the raw better-sqlite3 handle; the copy is a self-contained SQLite file.
export function vacuumInto(sqlite: BetterSqlite3.Database, file: string): SnapshotFile {
  const existed = existsSync(file)
  try {
    sqlite.prepare('vacuum into ?').run(file)
  } catch (error) {
    // A copy cut short (disk full) is not a pack; a file that was there before is not ours.
    if (!existed) removeDatabaseFiles(file)
    throw error
  }
  return { path: file, sizeBytes: statSync(file).size }
}

export interface ScratchCopy {
  sqlite: BetterSqlite3.Database
  db: Kysely<Database>
  close(): Promise<void>
}

/** A hidden name beside FILE for the working copy: same disk, so no second volume fills up. */
export function scratchPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.partial`)
}

/**
 * Copies the store into `path` and opens the copy for rewriting. It is scratch: no journal and no
 * syncing (a failure deletes it, so there is nothing to roll back to), foreign keys on.
 */
// SQLite-only: VACUUM INTO, a second better-sqlite3 connection with the store's binding, journal_mode OFF.
export function openScratchCopy(handle: { sqlite: BetterSqlite3.Database; nativeBinding?: string }, path: string): ScratchCopy {
  vacuumInto(handle.sqlite, path)
  const sqlite = new BetterSqlite3(path, { nativeBinding: handle.nativeBinding })
  sqlite.pragma('journal_mode = OFF')
  sqlite.pragma('synchronous = OFF')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('cache_size = -65536')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  return { sqlite, db, close: () => db.destroy() }
}
