import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Continuous sync (issue 15 pt 3): one row per followed source with its state, so the console can
 * say when each source was last synced and how that went, a flag on the pulls a sync runs (its
 * cycles), which the pull history lists apart, and the kind of a pull's failure. The token is never stored. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pull_syncs')
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text')
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('interval_ms', 'integer', (c) => c.notNull().check(sql`interval_ms > 0`))
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pulling', 'waiting', 'retrying', 'stopped', 'failed')`))
    .addColumn('pid', 'integer')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_cycle_at', 'text')
    .addColumn('last_success_at', 'text')
    .addColumn('next_cycle_at', 'text')
    .addColumn('cycles', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('last_pull_id', 'text')
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.alterTable('pulls').addColumn('sync', 'integer', (c) => c.notNull().defaultTo(0).check(sql`sync in (0, 1)`)).execute()
  // Why a pull stopped, as a kind (the remote-client's, or 'store'): a sync stops for good on 'auth'.
  await db.schema.alterTable('pulls').addColumn('failure_kind', 'text').execute()
  await db.schema.createIndex('pulls_sync_started').on('pulls').columns(['sync', 'started_at']).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pulls_sync_started').execute()
  await db.schema.alterTable('pulls').dropColumn('failure_kind').execute()
  await db.schema.alterTable('pulls').dropColumn('sync').execute()
  await db.schema.dropTable('pull_syncs').execute()
}

export const pullSyncs: Migration = { up, down }
