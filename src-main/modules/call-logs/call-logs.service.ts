import type { Kysely } from 'kysely'
import type { CallLog, CallLogQuery } from '../../../src-shared/schemas/call-log'
import type { CallLogRow, Database } from '../../db/schema'
import type { Principal } from '../tokens/tokens.service'
import * as repo from './call-logs.repo'
import { createCallLogSearch } from './call-logs.search'

export function toCallLog(row: CallLogRow): CallLog {
  return {
    id: row.id,
    tenant_id: row.tenant_id,
    log_type: row.log_type,
    log_level: row.log_level as CallLog['log_level'],
    message: row.message,
    timestamp: row.timestamp,
    agent_id: row.agent_id,
    session_id: row.session_id,
    call_id: row.call_id,
    details: JSON.parse(row.details) as Record<string, unknown>,
    user_id: row.user_id,
    trace_id: row.trace_id,
    request_id: row.request_id,
  }
}

function toFilter(principal: Principal, query: CallLogQuery): repo.CallLogFilter {
  return {
    from: query.start_date,
    to: query.end_date,
    agentId: query.agent_id,
    tenantId: principal.tenantId ?? undefined,
    limit: query.limit,
  }
}

export function createCallLogsService(db: Kysely<Database>) {
  return {
    /** The console's search, facets, histogram and context (call-logs.search.ts). */
    ...createCallLogSearch(db, toCallLog),
    /** Call logs, newest first; a tenant token sees only its tenant's records. */
    async list(principal: Principal, query: CallLogQuery): Promise<CallLog[]> {
      return (await repo.listCallLogs(db, toFilter(principal, query))).map(toCallLog)
    },
    /** The same listing as JSON text, ready to send: what the REST route serves. */
    listJson(principal: Principal, query: CallLogQuery): Promise<string> {
      return repo.listCallLogsJson(db, toFilter(principal, query))
    },
  }
}

export type CallLogsService = ReturnType<typeof createCallLogsService>
