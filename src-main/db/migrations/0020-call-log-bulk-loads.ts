import { type Kysely, type Migration, sql } from 'kysely'

/*
 * A bulk load of call logs that commits as it goes (a first pull into an empty store, issue 15
 * pt 5) runs with the table's secondary indexes and message-index triggers dropped. While it runs,
 * a row here says so and holds their definitions: a process killed in between leaves the row, and
 * the next open of the store puts them back (call-logs.write.repo finishOrphanedBulkLoads).
 * `indexed_seq`: the messages of rows up to this seq are in the message indexes already.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('call_log_bulk_loads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('objects', 'text', (c) => c.notNull().check(sql`json_valid(objects) and json_type(objects) = 'array'`))
    .addColumn('indexed_seq', 'integer', (c) => c.notNull().check(sql`indexed_seq >= 0`))
    .modifyEnd(sql`strict`)
    .execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('call_log_bulk_loads').ifExists().execute()
}

export const callLogBulkLoads: Migration = { up, down }
