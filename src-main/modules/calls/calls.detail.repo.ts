import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema'

/*
 * The reads of one call's page, each by a key with an index: calls by its primary key, call_logs by
 * call_logs_call, agents, tenants and squads by their primary keys (checked by EXPLAIN QUERY PLAN in
 * test/http/call-detail.test.ts). The session's messages and transfers are the conversations repo's.
 */

/** The call's row, or undefined when the store has none (its lines may still be there). */
export function findCall(db: Kysely<Database>, id: string) {
  return db.selectFrom('calls').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The call's first `limit` lines in time order (storage order among equal timestamps), of one tenant and one source when scoped. */
export function callLines(db: Kysely<Database>, callId: string, tenantId: string | undefined, limit: number, source?: string) {
  let q = db
    .selectFrom('call_logs')
    .select(['id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id', 'session_id', 'details', 'trace_id', 'request_id'])
    .where('call_id', '=', callId)
  if (tenantId) q = q.where('tenant_id', '=', tenantId)
  if (source !== undefined) q = q.where('source', '=', source)
  return q.orderBy('timestamp').orderBy('seq').limit(limit).execute()
}

/** How many lines the call has (of one tenant when scoped). */
export async function countCallLines(db: Kysely<Database>, callId: string, tenantId: string | undefined, source?: string): Promise<number> {
  let q = db.selectFrom('call_logs').select(sql<number>`count(*)`.as('n')).where('call_id', '=', callId)
  if (tenantId) q = q.where('tenant_id', '=', tenantId)
  if (source !== undefined) q = q.where('source', '=', source)
  return Number((await q.executeTakeFirstOrThrow()).n)
}

/** Names of the agents with these ids (unknown ids are left out). */
export async function agentNames(db: Kysely<Database>, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('agents').select(['id', 'name']).where('id', 'in', ids).execute()
  return new Map(rows.map((r) => [r.id, r.name]))
}

export async function tenantName(db: Kysely<Database>, id: string): Promise<string | null> {
  // Local or pulled (tenant_rows); the local one first when both have the id.
  return (await db.selectFrom('tenant_rows').select('name').where('id', '=', id).orderBy(sql`source = ''`, 'desc').executeTakeFirst())?.name ?? null
}

export async function squadName(db: Kysely<Database>, id: string): Promise<string | null> {
  return (await db.selectFrom('squads').select('name').where('id', '=', id).executeTakeFirst())?.name ?? null
}
