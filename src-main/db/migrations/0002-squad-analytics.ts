import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Covering indexes for squad analytics (`GET /squads/{squad_id}/analytics`). Frozen snapshot: the
 * column lists are written out here, not imported.
 *
 * conversations: the key order matches the analytics GROUP BY (agent, strategy, channel, language),
 * so SQLite aggregates a squad's sessions straight from the index in one pass, without reading the
 * table and without a temporary sort; created_at, the measured columns and the handle time
 * (ended_at − created_at, ms) ride along so the period filter and the sums are answered from the
 * index too. Partial: only squad sessions.
 *
 * transfers: (squad_id, requested_at) bounds the period; the rest makes it covering.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('conversations_squad_analytics')
    .on('conversations')
    .columns([
      'squad_id',
      'agent_id',
      'routing_strategy',
      'channel',
      'language',
      'created_at',
      'ended_at',
      'wait_ms',
      'resolved',
      'status',
    ])
    // Handle time in ms, stored in the index so SQLite reads it instead of parsing two timestamps
    // per session. Queries must spell the expression exactly like this to get the stored value.
    .expression(sql`((julianday(ended_at) - julianday(created_at)) * 86400000.0)`)
    .where(sql.ref('squad_id'), 'is not', null)
    .execute()
  await db.schema
    .createIndex('transfers_squad_analytics')
    .on('transfers')
    .columns(['squad_id', 'requested_at', 'outcome', 'latency_ms', 'reason', 'from_agent_id', 'to_agent_id'])
    .where(sql.ref('squad_id'), 'is not', null)
    .execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('transfers_squad_analytics').ifExists().execute()
  await db.schema.dropIndex('conversations_squad_analytics').ifExists().execute()
}

export const squadAnalytics: Migration = { up, down }
