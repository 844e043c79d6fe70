import type { Kysely, Selectable } from 'kysely'
import type { Database } from '../../db/schema'

/** The tables that record runs (an import, a pull): each row one run with its status and process. */
export type RunTable = 'imports' | 'pulls'
export type RunRow<T extends RunTable> = Selectable<Database[T]>

/** The columns every run table has, which are all the queries below touch. */
interface RunColumns {
  id: string
  status: string
  pid: number | null
  started_at: string
  finished_at: string | null
}

/**
 * The store seen as one table of those shared columns, so one query serves either table (kysely
 * cannot type a query over a union of table names). `table` is the real name used in the SQL.
 */
const runs = (db: Kysely<Database>) => db as unknown as Kysely<{ [K in RunTable]: RunColumns }>
const named = (table: RunTable) => table as 'imports'

/** Newest first; the id orders runs started at the same moment. */
export async function listRuns<T extends RunTable>(db: Kysely<Database>, table: T, limit: number): Promise<Array<RunRow<T>>> {
  const rows = await runs(db).selectFrom(named(table)).selectAll().orderBy('started_at', 'desc').orderBy('id').limit(limit).execute()
  return rows as unknown as Array<RunRow<T>>
}

export async function findRun<T extends RunTable>(db: Kysely<Database>, table: T, id: string): Promise<RunRow<T> | undefined> {
  const row = await runs(db).selectFrom(named(table)).selectAll().where('id', '=', id).executeTakeFirst()
  return row as unknown as RunRow<T> | undefined
}

/** The runs recorded as running, with the process that runs (or ran) each. */
export function runningRuns(db: Kysely<Database>, table: RunTable): Promise<Array<{ id: string; pid: number | null }>> {
  return runs(db).selectFrom(named(table)).select(['id', 'pid']).where('status', '=', 'running').execute()
}

export function markInterrupted(db: Kysely<Database>, table: RunTable, ids: string[], at: string): Promise<unknown> {
  return runs(db).updateTable(named(table)).set({ status: 'interrupted', finished_at: at }).where('id', 'in', ids).execute()
}

/** Sets a run's columns (its end, once the store has room again: run-lifecycle.ts). */
export function updateRun<T extends RunTable>(db: Kysely<Database>, table: T, id: string, columns: Partial<RunRow<T>>): Promise<unknown> {
  return runs(db).updateTable(named(table)).set(columns as Partial<RunColumns>).where('id', '=', id).execute()
}
