import type { Kysely } from 'kysely'
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
export function listCallLogs(db: Kysely<Database>, filter: CallLogFilter): Promise<CallLogRow[]> {
  let query = db.selectFrom('call_logs').selectAll()
  if (filter.from) query = query.where('timestamp', '>=', filter.from)
  if (filter.to) query = query.where('timestamp', '<=', filter.to)
  if (filter.agentId) query = query.where('agent_id', '=', filter.agentId)
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId)
  return query.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(filter.limit).execute()
}
