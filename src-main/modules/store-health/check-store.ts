import Database from 'better-sqlite3'
import { sql } from 'kysely'
import { storeFaultKind } from '../../../src-shared/store-faults'
import { openPostgresStore } from '../../db/pg-connection'
import { checkHeader, checkSchema, integrityCheck } from '../../db/store-check'

/*
 * `callscope db check` (issue 36): how far a store is damaged, without writing to it (no migration,
 * no repair). SQLite: header and size, schema, then quick_check or, with --full, integrity_check.
 * PostgreSQL: what the server itself can notice when every table is read through.
 */

export interface StoreCheckReport {
  store: 'sqlite' | 'postgres'
  path: string
  sizeBytes: number | null
  depth: 'quick' | 'full'
  healthy: boolean
  problems: string[]
  /** What was looked at, in words. */
  checked: string[]
  /** What this check cannot see (PostgreSQL), in words. */
  notChecked: string[]
}

export function checkSqliteStore(path: string, depth: 'quick' | 'full'): StoreCheckReport {
  const header = checkHeader(path)
  const checked = ['the header and the file size']
  const report = (problems: string[]): StoreCheckReport => ({ store: 'sqlite', path, sizeBytes: header.fileBytes, depth, healthy: problems.length === 0, problems, checked, notChecked: [] })
  if (!header.opens) return report(header.problems)
  const db = new Database(path, { readonly: true, fileMustExist: true })
  try {
    const problems = [...header.problems]
    checked.push('the schema')
    const schema = checkSchema(db)
    problems.push(...schema)
    if (schema.length) return report(problems)
    checked.push(depth === 'full' ? 'every page, record and index against its table (integrity_check)' : 'every page and record (quick_check; --full also checks each index against its table)')
    const found = integrityCheck(db, depth)
    problems.push(...found)
    // A check stopped by the damage says nothing of where it is: name the tables a read-through fails on.
    if (found.length === 1 && found[0]!.startsWith('the check stopped')) problems.push(...unreadableTables(db))
    return report(problems)
  } catch (error) {
    // Opening reads the header once more: a file SQLite refuses outright is damage too.
    if (storeFaultKind(error) !== 'damaged') throw error
    return report([`SQLite cannot read the file: ${(error as Error).message}`])
  } finally {
    db.close()
  }
}

/** Each ordinary table whose rows cannot all be read, with SQLite's words. */
function unreadableTables(db: Database.Database): string[] {
  const tables = db.prepare("select name from sqlite_master where type = 'table' and sql not like 'create virtual%' collate nocase").pluck().all() as string[]
  const problems: string[] = []
  for (const table of tables) {
    try {
      for (const _ of db.prepare(`select * from "${table}"`).raw(true).iterate()) void _
    } catch (error) {
      if (storeFaultKind(error) !== 'damaged') throw error
      problems.push(`table ${table}: a read of its rows fails (${(error as Error).message})`)
    }
  }
  return problems
}

/**
 * PostgreSQL: every table of the store's schema read through once by a sequential scan. The server
 * checks each page's header as it reads it (and its checksum, when the cluster has data checksums
 * on), and answers data_corrupted (XX001) for one it cannot use. Indexes are not checked.
 */
export async function checkPostgresStore(url: string): Promise<StoreCheckReport> {
  const handle = openPostgresStore({ url, poolSize: 1 })
  const problems: string[] = []
  try {
    const tables = (
      await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r' order by c.relname`.execute(handle.db)
    ).rows.map((row) => row.name)
    await handle.db.connection().execute(async (db) => {
      await sql`set enable_indexscan = off`.execute(db)
      await sql`set enable_indexonlyscan = off`.execute(db)
      await sql`set enable_bitmapscan = off`.execute(db)
      for (const table of tables) {
        try {
          await sql`select count(*) from ${sql.table(table)}`.execute(db)
        } catch (error) {
          if (storeFaultKind(error) !== 'damaged') throw error
          problems.push(`${table}: ${(error as Error).message}`)
        }
      }
    })
    return {
      store: 'postgres',
      path: handle.path,
      sizeBytes: null,
      depth: 'quick',
      healthy: problems.length === 0,
      problems,
      checked: [`every page of the ${tables.length} tables, read through once (the server checks each page's header, and its checksum when data checksums are on)`],
      notChecked: ['indexes (amcheck, out of scope)', 'the server\'s own files and WAL (pg_checksums, pg_amcheck and the server log are the tools)'],
    }
  } finally {
    await handle.close()
  }
}
