import { resolve } from 'node:path'
import { type Kysely, sql } from 'kysely'
import type { DatabaseHandle } from '../../db/connection'
import { migrateToLatest } from '../../db/migrate'
import { COPIED_TABLES } from '../../db/pg-copy'
import type { Database } from '../../db/schema'
import { clearSnapshotTarget, removeDatabaseFiles, scratchPathFor } from '../../db/snapshot'
import { insertRowsJob, snapshotJob } from './database.write-jobs'
import type { OpenScratchStore } from './pg-seed'
import type { SnapshotOptions, SnapshotResult } from './snapshot-pack'

/*
 * A PostgreSQL store's snapshot (issue 20: a team server's data taken home as a demo pack): the same
 * pack a SQLite store writes, one SQLite file that `serve --db FILE` opens. Every table is read from
 * PostgreSQL in one read-only REPEATABLE READ transaction (one consistent moment, as VACUUM INTO
 * gives SQLite), through a cursor per table, into a new SQLite store beside FILE; its triggers fill
 * the word indexes as the rows go in. That store is then packed as any SQLite store is
 * (snapshot-pack.ts: secrets left out unless asked, personal data pseudonymised with `redact`,
 * written with VACUUM INTO) and deleted. PostgreSQL's own tables (call_log_ids, the day counts) are
 * not copied: SQLite has no use for them.
 */

/** Rows fetched from a cursor, and written to SQLite, at a time. */
const PAGE_ROWS = 5_000

/** The columns of each copied table in the SQLite store: what is copied of PostgreSQL's (its generated tsvector is not). */
async function sqliteColumns(db: Kysely<Database>): Promise<Map<string, string[]>> {
  const columns = new Map<string, string[]>()
  for (const table of COPIED_TABLES) {
    const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${table}) order by cid`.execute(db)
    columns.set(table, rows.map((r) => r.name))
  }
  return columns
}

/** Every copied table of `source` (PostgreSQL) into `target` (a new, migrated SQLite store), parents first; rows per table. */
async function copyPostgresToSqlite(source: Kysely<Database>, target: DatabaseHandle): Promise<Record<string, number>> {
  const columns = await sqliteColumns(target.db)
  const counts: Record<string, number> = {}
  await source.transaction().setIsolationLevel('repeatable read').execute(async (tx) => {
    await sql`set transaction read only`.execute(tx)
    for (const table of COPIED_TABLES) {
      const names = columns.get(table)!
      await sql`declare snapshot_rows no scroll cursor for select * from ${sql.table(table)}`.execute(tx)
      let count = 0
      for (;;) {
        const { rows } = await sql<Record<string, unknown>>`fetch ${sql.raw(String(PAGE_ROWS))} from snapshot_rows`.execute(tx)
        if (rows.length === 0) break
        count += await target.writer.run(insertRowsJob, { table, columns: names, rows: rows.map((row) => names.map((name) => row[name] ?? null)) })
      }
      await sql`close snapshot_rows`.execute(tx)
      counts[table] = count
    }
  })
  return counts
}

/** The pack of a PostgreSQL store in FILE (see above). */
export async function snapshotPostgres(source: Kysely<Database>, file: string, options: SnapshotOptions, openScratch: OpenScratchStore): Promise<SnapshotResult> {
  const target = resolve(file)
  clearSnapshotTarget(target, options.overwrite ?? false)
  const copyPath = scratchPathFor(target)
  try {
    const copy = await openScratch(copyPath)
    try {
      await migrateToLatest(copy.db)
      await copyPostgresToSqlite(source, copy)
      // The copy is packed as a SQLite store is; FILE was cleared above.
      return await copy.writer.run(snapshotJob, { file: target, options: { ...options, overwrite: false } })
    } finally {
      await copy.close()
    }
  } finally {
    removeDatabaseFiles(copyPath)
  }
}
