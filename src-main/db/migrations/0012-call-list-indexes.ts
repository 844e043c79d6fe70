import type { Kysely, Migration } from 'kysely'

/*
 * The calls list (issue 16): an index for each filter it offers that the first schema had none for,
 * each ending in started_at (the default order) and id (the keyset's tie-break). Tenant, agent and
 * conversation (the squad filter's join) already have theirs. Frozen snapshot.
 */
const INDEXES: Array<[string, string[]]> = [
  ['calls_started', ['started_at', 'id']],
  ['calls_status_started', ['status', 'started_at', 'id']],
  ['calls_end_reason_started', ['end_reason', 'started_at', 'id']],
  ['calls_direction_started', ['direction', 'started_at', 'id']],
  ['calls_duration', ['duration_ms', 'id']],
  ['calls_from_number', ['from_number']],
  ['calls_to_number', ['to_number']],
]

async function up(db: Kysely<any>): Promise<void> {
  for (const [name, columns] of INDEXES) await db.schema.createIndex(name).on('calls').columns(columns).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).execute()
}

export const callListIndexes: Migration = { up, down }
