import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { JsonReads } from '../../db/json-reads'
import type { CallLogRow, Database } from '../../db/schema'
import { EXPORT_COLUMNS } from './call-logs.lines'

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
  const { bytes } = await json.bytes(filtered(db, filter).select(callLogJson().as('json')), { framing: 'array' })
  return bytes
}

/**
 * A call_logs row as the API's record in JSON (UTF-8 bytes): the spec's 13 fields in its order,
 * `details` embedded as JSON; what JSON.stringify of the record object writes.
 */
// SQLite-only: json_object() and json() of JSON1, cast to a BLOB so the text reaches JavaScript as
// UTF-8 bytes, never as a string. PostgreSQL: convert_to(json_build_object(...)::text, 'UTF8').
export function callLogJson(): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`cast(json_object(
    'id', id, 'tenant_id', tenant_id, 'log_type', log_type, 'log_level', log_level, 'message', message,
    'timestamp', timestamp, 'agent_id', agent_id, 'session_id', session_id, 'call_id', call_id,
    'details', json(details), 'user_id', user_id, 'trace_id', trace_id, 'request_id', request_id
  ) as blob)`
}

/**
 * A call_logs row as a line of the CSV export (UTF-8 bytes, CRLF included): the 13 fields in
 * EXPORT_COLUMNS order, each by the rules of csvField (call-logs.lines.ts), to which the tests hold
 * it: null is empty; a value whose first character after any apostrophes is a formula trigger gets
 * an apostrophe and quotes; one with a quote, comma, CR or LF is quoted; quotes are doubled.
 */
// SQLite-only: ltrim/substr/instr/replace, char() for control characters, json() for details'
// minified text, a BLOB cast for bytes. PostgreSQL: ltrim/left/strpos/replace/chr and convert_to.
export function callLogCsvLine(): RawBuilder<Uint8Array> {
  const fields = EXPORT_COLUMNS.map((column) => csvFieldSql(column === 'details' ? sql`json(details)` : sql.ref(column)))
  return sql<Uint8Array>`cast(${sql.join(fields, sql` || ',' || `)} || char(13, 10) as blob)`
}

function csvFieldSql(value: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`(case
    when ${value} is null then ''
    when substr(ltrim(${value}, ''''), 1, 1) in ('=', '+', '-', '@', char(9), char(13)) then '"''' || replace(${value}, '"', '""') || '"'
    when instr(${value}, '"') > 0 or instr(${value}, ',') > 0 or instr(${value}, char(13)) > 0 or instr(${value}, char(10)) > 0
      then '"' || replace(${value}, '"', '""') || '"'
    else ${value}
  end)`
}
