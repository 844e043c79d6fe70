import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Pulling from a live backend: a record of each pull (never its token), the cursors that let a
 * pull resume where the last one stopped, and what was fetched that has no table of its own
 * (session listings, squad analytics, SIP trunk lists), kept as the remote answered it, with its
 * source and time. Tenants and call logs land in their own tables. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pulls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text')
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('until', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('running', 'completed', 'failed', 'interrupted', 'cancelled')`),
    )
    .addColumn('pid', 'integer')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('counts', 'text', (c) => c.notNull().defaultTo('{}').check(sql`json_valid(counts) and json_type(counts) = 'object'`))
    .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]').check(sql`json_valid(errors) and json_type(errors) = 'array'`))
    .addColumn('failure', 'text')
    .addColumn('duration_ms', 'integer')
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulls_source_started').on('pulls').columns(['source', 'started_at']).execute()
  await db.schema.createIndex('pulls_started').on('pulls').column('started_at').execute()

  await db.schema
    .createTable('pull_cursors')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pull_cursors_pk', ['source', 'key'])
    .modifyEnd(sql`strict`)
    .execute()

  await db.schema
    .createTable('pulled_documents')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('session', 'squad_analytics', 'sip_trunks')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull().check(sql`json_valid(body)`))
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_documents_pk', ['source', 'kind', 'key'])
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulled_documents_kind').on('pulled_documents').columns(['kind', 'source']).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['pulled_documents', 'pull_cursors', 'pulls']) await db.schema.dropTable(table).ifExists().execute()
}

export const pulls: Migration = { up, down }
