import { type Kysely, sql } from 'kysely'
import type { Database, SavedViewRow } from '../../db/schema'

/** Every view, by name ignoring case (the name index's order), then id. */
export function listViews(db: Kysely<Database>): Promise<SavedViewRow[]> {
  return db.selectFrom('saved_views').selectAll().orderBy(sql`lower(name)`).orderBy('id').execute()
}

export function findView(db: Kysely<Database>, id: string): Promise<SavedViewRow | undefined> {
  return db.selectFrom('saved_views').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Ids and names of every view: what a new name is checked against (inside the writing transaction). */
export function viewNames(db: Kysely<Database>): Promise<Array<Pick<SavedViewRow, 'id' | 'name'>>> {
  return db.selectFrom('saved_views').select(['id', 'name']).execute()
}

export function insertView(db: Kysely<Database>, row: SavedViewRow) {
  return db.insertInto('saved_views').values(row).execute()
}

export function updateView(db: Kysely<Database>, id: string, fields: Partial<Omit<SavedViewRow, 'id' | 'created_at'>>) {
  return db.updateTable('saved_views').set(fields).where('id', '=', id).execute()
}

/** How many rows went: 0 when there was no such view. */
export async function deleteView(db: Kysely<Database>, id: string): Promise<number> {
  const result = await db.deleteFrom('saved_views').where('id', '=', id).executeTakeFirst()
  return Number(result.numDeletedRows)
}
