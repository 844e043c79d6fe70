import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely, Selectable } from 'kysely'
import type { Database, ImportsTable } from '../../db/schema'

/*
 * The imports table. Listing, finding and interrupting runs are shared with pulls (runs/runs.repo.ts);
 * the call logs an import writes go through call-logs/call-logs.write.repo.ts.
 */

export type ImportRow = Selectable<ImportsTable>

export function insertImport(db: Kysely<Database>, row: ImportRow): Promise<unknown> {
  return db.insertInto('imports').values(row).execute()
}

export type ImportProgressColumns = Pick<ImportRow, 'bytes_read' | 'records_read' | 'inserted' | 'duplicates' | 'invalid' | 'errors' | 'updated_at'>

/** The same update as a prepared statement, to run inside a batch's synchronous transaction. */
// SQLite-only: a prepared statement on the raw better-sqlite3 handle, run synchronously inside the batch's transaction.
export function prepareProgressUpdate(db: Kysely<Database>, sqlite: BetterSqlite3.Database): (id: string, p: ImportProgressColumns) => void {
  const { sql } = db
    .updateTable('imports')
    .set({ bytes_read: 0, records_read: 0, inserted: 0, duplicates: 0, invalid: 0, errors: '', updated_at: '' })
    .where('id', '=', '')
    .compile()
  const statement = sqlite.prepare(sql)
  return (id, p) => {
    statement.run(p.bytes_read, p.records_read, p.inserted, p.duplicates, p.invalid, p.errors, p.updated_at, id)
  }
}

export function finishImport(db: Kysely<Database>, id: string, end: Pick<ImportRow, 'status' | 'finished_at' | 'duration_ms' | 'failure'> & ImportProgressColumns): Promise<unknown> {
  return db.updateTable('imports').set(end).where('id', '=', id).execute()
}
