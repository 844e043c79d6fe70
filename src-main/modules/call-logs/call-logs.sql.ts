import { type Kysely, type RawBuilder, sql } from 'kysely'
import { jsonInstant, jsonObject, jsonRaw, jsonString } from '../../db/pg-json'
import type { Database } from '../../db/schema'
import { forStore } from '../../db/store-kind'
import { EXPORT_COLUMNS } from './call-logs.lines'

/** The call log rows as answer bytes, per store (db/store-sql.ts's pattern). */
export interface CallLogsSql {
  /** A call_logs row as the API's record in JSON: the spec's 13 fields in its order, `details` embedded. */
  callLogJson(): RawBuilder<Uint8Array | string>
  /** A call_logs row as a line of the CSV export, CRLF included (call-logs.repo.ts callLogCsvLine). */
  callLogCsvLine(): RawBuilder<Uint8Array | string>
}

/**
 * A call_logs row as the API's record in JSON (UTF-8 bytes): the spec's 13 fields in its order,
 * `details` embedded as JSON; what JSON.stringify of the record object writes.
 */
// SQLite-only: json_object() and json() of JSON1, cast to a BLOB so the text reaches JavaScript as
// UTF-8 bytes, never as a string. PostgreSQL: convert_to(json_build_object(...)::text, 'UTF8').
function sqliteCallLogJson(): RawBuilder<Uint8Array> {
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
function sqliteCallLogCsvLine(): RawBuilder<Uint8Array> {
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

const sqliteCallLogsSql: CallLogsSql = { callLogJson: sqliteCallLogJson, callLogCsvLine: sqliteCallLogCsvLine }

const postgresCallLogsSql: CallLogsSql = {
  // Text rather than bytes: pg reads bytea as hex, which costs more than the UTF-8 text it stands for.
  callLogJson: () =>
    jsonObject([
      ['id', jsonString(ref('id'))],
      ['tenant_id', jsonString(ref('tenant_id'))],
      ['log_type', jsonString(ref('log_type'))],
      ['log_level', jsonString(ref('log_level'))],
      ['message', jsonString(ref('message'))],
      ['timestamp', jsonInstant(ref('timestamp'))],
      ['agent_id', jsonString(ref('agent_id'))],
      ['session_id', jsonString(ref('session_id'))],
      ['call_id', jsonString(ref('call_id'))],
      // As written: the writers store details minified (JSON.stringify, or SQLite's json() in a copy).
      ['details', jsonRaw(ref('details'))],
      ['user_id', jsonString(ref('user_id'))],
      ['trace_id', jsonString(ref('trace_id'))],
      ['request_id', jsonString(ref('request_id'))],
    ]),
  callLogCsvLine: () => {
    throw new Error('the CSV export is not available on a PostgreSQL store yet')
  },
}

const ref = (column: string) => sql.ref(column)

/** The fragments for the store `db` runs on. */
export const callLogsSql = (db: Kysely<Database>): CallLogsSql => forStore(db, { sqlite: sqliteCallLogsSql, postgres: postgresCallLogsSql })
