import { existsSync, statSync } from 'node:fs'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { partialPathFor, removeDatabaseFiles, removeDeadPartials, renameWhole } from './partial-files'
import type { Database } from './schema'

export { removeDatabaseFiles } from './partial-files'

export interface SnapshotFile {
  path: string
  sizeBytes: number
}

/**
 * Refuses an existing FILE unless `overwrite`, in which case it and its siblings go first; clears
 * the hidden working files a killed snapshot to FILE left (partial-files.ts).
 */
export function clearSnapshotTarget(file: string, overwrite: boolean): void {
  removeDeadPartials(file)
  if (!existsSync(file)) return
  if (!overwrite) throw new Error(`${file} already exists (use --force to replace it)`)
  removeDatabaseFiles(file)
}

/**
 * A consistent copy of a whole database in one new file. VACUUM INTO is a read transaction (writers
 * may go on), writes no WAL beside the copy, and builds every page afresh: free pages and what
 * deleted rows left in them are not copied, which is what lets a pack leave data out for good.
 * It writes a hidden partial file renamed to FILE once whole: SQLite writes VACUUM INTO's pages
 * straight into its target, so a process killed part way left a FILE that looked like a pack and
 * held a part of one (issue 36).
 */
// SQLite-only: VACUUM INTO on the raw better-sqlite3 handle; the copy is a self-contained SQLite file.
export function vacuumInto(sqlite: BetterSqlite3.Database, file: string): SnapshotFile {
  const partial = partialPathFor(file)
  try {
    sqlite.prepare('vacuum into ?').run(partial)
    renameWhole(partial, file)
  } catch (error) {
    // A copy cut short (disk full) is not a pack.
    removeDatabaseFiles(partial)
    throw error
  }
  return { path: file, sizeBytes: statSync(file).size }
}

export interface ScratchCopy {
  sqlite: BetterSqlite3.Database
  db: Kysely<Database>
  close(): Promise<void>
}

/**
 * A hidden name beside FILE for the working copy: same disk, so no second volume fills up; named
 * with the pid, so the next snapshot to FILE clears one a killed process left (clearSnapshotTarget).
 */
export const scratchPathFor = partialPathFor

/**
 * Copies the store into `path` and opens the copy for rewriting. It is scratch: no journal and no
 * syncing (a failure deletes it, so there is nothing to roll back to), foreign keys on.
 */
// SQLite-only: VACUUM INTO, a second better-sqlite3 connection with the store's binding, journal_mode OFF.
export function openScratchCopy(handle: { sqlite: BetterSqlite3.Database; nativeBinding?: string }, path: string): ScratchCopy {
  // Scratch already has a hidden partial name, and its callers delete it whatever happens.
  handle.sqlite.prepare('vacuum into ?').run(path)
  const sqlite = new BetterSqlite3(path, { nativeBinding: handle.nativeBinding })
  sqlite.pragma('journal_mode = OFF')
  sqlite.pragma('synchronous = OFF')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('cache_size = -65536')
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) })
  return { sqlite, db, close: () => db.destroy() }
}
