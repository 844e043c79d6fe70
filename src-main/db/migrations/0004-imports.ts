import { type Kysely, type Migration, sql } from 'kysely'

/*
 * A record of every call log import: where it came from, how far it got and what was wrong with
 * the records it refused. Counts are updated in the same transaction as each batch of rows, so
 * they always agree with what the store holds, even after a crash. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('call_logs')`))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull().check(sql`format in ('ndjson', 'json', 'csv')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('running', 'completed', 'failed', 'interrupted')`))
    .addColumn('pid', 'integer')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('bytes_total', 'integer')
    .addColumn('bytes_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('records_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('duplicates', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('invalid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('errors', 'text', (c) =>
      c.notNull().defaultTo('[]').check(sql`json_valid(errors) and json_type(errors) = 'array'`),
    )
    .addColumn('failure', 'text')
    .addColumn('duration_ms', 'integer')
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('imports_started').on('imports').column('started_at').execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('imports').ifExists().execute()
}

export const imports: Migration = { up, down }
