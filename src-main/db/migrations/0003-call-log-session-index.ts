import type { Kysely, Migration } from 'kysely'

/*
 * The console filters call logs by session (the "same session" pivot). Like the call and trace
 * pivots, a session holds a few dozen lines that are sorted in no time, so no timestamp column.
 * Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('call_logs_session').on('call_logs').column('session_id').execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('call_logs_session').ifExists().execute()
}

export const callLogSessionIndex: Migration = { up, down }
