import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The source an import's call logs are stored under (issue 20 pt 4, `callscope push`): '' for
 * Callscope's own rows, as every import wrote until now, or a pulled backend's base URL when a
 * laptop pushes what it pulled from that backend to a team server. The sources listing reads it, so
 * a source that reached the server only by push is one `?source=` can name. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('imports')
    .addColumn('call_log_source', 'text', (c) => c.notNull().defaultTo('').check(sql`length(call_log_source) <= 2048`))
    .execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('imports').dropColumn('call_log_source').execute()
}

export const importSources: Migration = { up, down }
