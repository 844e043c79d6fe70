import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Saved views of the log explorer (issue 17 pt 5): a name, a description and the explorer's state
 * as JSON (the link's parameters, src-shared/explorer-state.ts). Names are unique ignoring case:
 * the service compares them with full Unicode case folding inside its write transaction; the
 * index on lower(name) is the store's own guarantee for ASCII (SQLite's lower() folds ASCII only).
 * Limits as in src-shared/schemas/saved-view.ts, written out here: a frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saved_views')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) between 1 and 100`))
    .addColumn('description', 'text', (c) => c.check(sql`description is null or length(description) between 1 and 1000`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`json_valid(state) and json_type(state) = 'object'`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('saved_views_name').unique().on('saved_views').expression(sql`lower(name)`).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('saved_views_name').ifExists().execute()
  await db.schema.dropTable('saved_views').ifExists().execute()
}

export const savedViews: Migration = { up, down }
