import type { Kysely, Migration } from 'kysely'

/*
 * Where a row came from, for rows a user did not create here: the import that brought a call log
 * in, or the pull that fetched it (or last wrote a tenant). The import or pull record holds the
 * rest: file or base URL, and when. Null for seeded and local rows. No index: nothing filters on
 * them, and each would cost every import row. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('call_logs').addColumn('import_id', 'text').execute()
  await db.schema.alterTable('call_logs').addColumn('pull_id', 'text').execute()
  await db.schema.alterTable('tenants').addColumn('pull_id', 'text').execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenants').dropColumn('pull_id').execute()
  await db.schema.alterTable('call_logs').dropColumn('pull_id').execute()
  await db.schema.alterTable('call_logs').dropColumn('import_id').execute()
}

export const origins: Migration = { up, down }
