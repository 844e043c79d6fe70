import type { CallLog } from '../../../src-shared/schemas/call-log'
import type { CallLogRow } from '../../db/schema'

/** A stored row as the API's call log record (details from JSON text to an object). */
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
