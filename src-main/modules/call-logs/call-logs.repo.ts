import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { CallLogRow, Database } from '../../db/schema'

/** What the call log listing can be narrowed by. Every field is served by an index. */
export interface CallLogFilter {
  /** Inclusive bounds, ISO 8601 UTC. */
  from?: string
  to?: string
  agentId?: string
  tenantId?: string
  limit: number
}

/** Newest first; `seq` breaks timestamp ties in insertion order. */
function filtered(db: Kysely<Database>, filter: CallLogFilter) {
  let query = db.selectFrom('call_logs').selectAll()
  if (filter.from) query = query.where('timestamp', '>=', filter.from)
  if (filter.to) query = query.where('timestamp', '<=', filter.to)
  if (filter.agentId) query = query.where('agent_id', '=', filter.agentId)
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId)
  return query.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(filter.limit)
}

export function listCallLogs(db: Kysely<Database>, filter: CallLogFilter): Promise<CallLogRow[]> {
  return filtered(db, filter).execute()
}

/**
 * The same records as a JSON array built by SQLite itself, in the spec's field order, `details`
 * embedded as stored. The REST listing sends this text as it is: parsing a thousand rows into
 * objects only to serialise them again was most of the cost of a large page.
 */
export async function listCallLogsJson(db: Kysely<Database>, filter: CallLogFilter): Promise<string> {
  const row = await db
    .selectFrom(filtered(db, filter).as('l'))
    .select(callLogsJsonArray().as('body'))
    .executeTakeFirstOrThrow()
  return row.body
}

/**
 * The rows of the subquery `l` (call_logs columns) as one JSON array text, newest first: each an
 * object with the spec's fields in the spec's order, `details` embedded as JSON (not as a string),
 * '[]' when there are none.
 */
// SQLite-only: json_group_array(json_object(...) order by ...) and json(), the JSON1 functions.
export function callLogsJsonArray(): RawBuilder<string> {
  return sql<string>`coalesce(json_group_array(json_object(
        'id', l.id, 'tenant_id', l.tenant_id, 'log_type', l.log_type, 'log_level', l.log_level,
        'message', l.message, 'timestamp', l.timestamp, 'agent_id', l.agent_id, 'session_id', l.session_id,
        'call_id', l.call_id, 'details', json(l.details), 'user_id', l.user_id, 'trace_id', l.trace_id,
        'request_id', l.request_id
      ) order by l.timestamp desc, l.seq desc), '[]')`
}
