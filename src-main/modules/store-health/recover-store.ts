import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import Database from 'better-sqlite3'
import { openDatabase } from '../../db/connection'
import { withIndexesDeferred, withRollbackJournal } from '../../db/bulk-insert'
import { MESSAGE_INDEXES, rebuildMessageIndexes } from '../../db/message-indexes'
import { migrateToLatest } from '../../db/migrate'
import { checkHeader } from '../../db/store-check'
import { type StoreCheckReport, checkSqliteStore } from './check-store'
import { salvageTable, type TableSalvage } from './salvage.repo'

/*
 * SQLite-only: `callscope db recover` (issue 36). A new store is made with the current schema by
 * the normal migrations, then every table's readable rows are copied into it by rowid, around the
 * damaged pages (salvage.repo.ts), and the full-text indexes are built from the copied messages.
 * Nothing is written to the damaged store, and an existing file is never overwritten.
 */

/** Tables the new store fills itself: the migrations' own record, and bookkeeping of loads in flight. */
const NOT_COPIED = new Set(['kysely_migration', 'kysely_migration_lock', 'call_log_bulk_loads'])
/** The full-text indexes and their shadow tables, rebuilt from the messages rather than copied. */
const isIndexTable = (name: string) => name.startsWith('sqlite_') || MESSAGE_INDEXES.some((index) => name === index || name.startsWith(`${index}_`))

export interface RecoverReport {
  source: string
  out: string
  tables: TableSalvage[]
  /** Tables of the damaged store the current schema does not have (an older store's, renamed since). */
  notInSchema: string[]
  /** Rows whose parent row was lost (foreign keys the copy leaves dangling), by table. */
  orphans: Record<string, number>
  /** The new store's own check, as `db check` gives it. */
  check: StoreCheckReport
}

const columnsOf = (db: Database.Database, table: string): string[] =>
  (db.prepare(`select name from pragma_table_info(?)`).pluck().all(table) as string[])

/** Refusals that are the caller's (exit 1), not damage. */
export class RecoverRefusedError extends Error {}

export async function recoverStore(sourcePath: string, outPath: string, onTable?: (salvage: TableSalvage) => void): Promise<RecoverReport> {
  if (!existsSync(sourcePath)) throw new RecoverRefusedError(`no store at ${sourcePath}`)
  if (existsSync(outPath)) throw new RecoverRefusedError(`${outPath} already exists: recover writes a new store and never overwrites a file; give another --out`)
  if (resolve(sourcePath) === resolve(outPath)) throw new RecoverRefusedError('--out must be a new file, not the damaged store')
  const header = checkHeader(sourcePath)
  if (!header.opens) {
    throw new RecoverRefusedError(
      `${sourcePath} cannot be opened as a SQLite store (${header.problems.join('; ')}), so no table can be read: restore a backup. ` +
        "SQLite's own `sqlite3 FILE .recover` cannot read a file without its header either.",
    )
  }
  const source = new Database(sourcePath, { readonly: true, fileMustExist: true })
  try {
    let sourceTables: string[]
    try {
      sourceTables = source.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[]
    } catch (error) {
      throw new RecoverRefusedError(
        `the schema of ${sourcePath} cannot be read (${(error as Error).message}): recover copies table by table and needs it. ` +
          "SQLite's own `sqlite3 FILE .recover` reads pages without the schema and may get more; or restore a backup.",
      )
    }
    const target = openDatabase({ path: outPath, readers: 0 })
    const report: Omit<RecoverReport, 'check'> = { source: sourcePath, out: outPath, tables: [], notInSchema: [], orphans: {} }
    try {
      await migrateToLatest(target.db)
      const targetTables = new Set(target.sqlite.prepare("select name from sqlite_master where type = 'table'").pluck().all() as string[])
      const toCopy = sourceTables.filter((name) => !isIndexTable(name) && !NOT_COPIED.has(name))
      report.notInSchema = toCopy.filter((name) => !targetTables.has(name))
      // Parents may be lost while their children are readable: keep the children, count them below.
      target.sqlite.pragma('foreign_keys = OFF')
      withRollbackJournal(target.sqlite, () =>
        target.sqlite.transaction(() => {
          for (const table of toCopy.filter((name) => targetTables.has(name))) {
            const wanted = new Set(columnsOf(target.sqlite, table))
            const columns = columnsOf(source, table).filter((column) => wanted.has(column))
            let salvage!: TableSalvage
            // Indexes built once after the rows, and the message triggers off: the indexes are rebuilt below.
            withIndexesDeferred(target.sqlite, table, () => {
              salvage = salvageTable(source, target.sqlite, table, columns)
            })
            report.tables.push(salvage)
            onTable?.(salvage)
          }
          rebuildMessageIndexes(target.sqlite)
        })(),
      )
      for (const { table } of target.sqlite.prepare('pragma foreign_key_check').all() as Array<{ table: string }>) {
        report.orphans[table] = (report.orphans[table] ?? 0) + 1
      }
      target.sqlite.pragma('foreign_keys = ON')
      // The planner's statistics, bounded so a large store is not read through once more.
      target.sqlite.pragma('analysis_limit = 1000')
      target.sqlite.exec('analyze')
    } finally {
      await target.close()
    }
    return { ...report, check: checkSqliteStore(outPath, 'quick') }
  } finally {
    source.close()
  }
}
