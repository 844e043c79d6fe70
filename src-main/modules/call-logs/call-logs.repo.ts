import type { Kysely } from 'kysely'
import type { JsonReads } from '../../db/json-reads'
import type { CallLogRow, Database } from '../../db/schema'
import { callLogsSql } from './call-logs.sql'

/** What the call log listing can be narrowed by. Every field is served by an index. */
export interface CallLogFilter {
  /** Inclusive bounds, ISO 8601 UTC. */
  from?: string
  to?: string
  agentId?: string
  tenantId?: string
  /** One source's lines ('' Callscope's own, else a pulled backend's base URL); absent: every source. */
  source?: string
  limit: number
}

/** Newest first; `seq` breaks timestamp ties in insertion order. */
function filtered(db: Kysely<Database>, filter: CallLogFilter) {
  let query = db.selectFrom('call_logs')
  if (filter.from) query = query.where('timestamp', '>=', filter.from)
  if (filter.to) query = query.where('timestamp', '<=', filter.to)
  if (filter.agentId) query = query.where('agent_id', '=', filter.agentId)
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId)
  if (filter.source !== undefined) query = query.where('source', '=', filter.source)
  return query.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(filter.limit)
}

export function listCallLogs(db: Kysely<Database>, filter: CallLogFilter): Promise<CallLogRow[]> {
  return filtered(db, filter).selectAll().execute()
}

/**
 * The same records as JSON bytes, each built by the query and joined beside it (on a reader thread
 * when the store has readers), in the spec's field order with `details` embedded. The REST listing
 * sends them as they are: turning a thousand rows into objects on the thread that answers
 * requests, only to serialise them again, was most of the cost of a large page (docs/benchmarks.md).
 */
export async function listCallLogsJson(db: Kysely<Database>, json: JsonReads, filter: CallLogFilter): Promise<Uint8Array<ArrayBuffer>> {
  const { bytes } = await json.bytes(filtered(db, filter).select(callLogsSql(db).callLogJson().as('json')), { framing: 'array' })
  return bytes
}
