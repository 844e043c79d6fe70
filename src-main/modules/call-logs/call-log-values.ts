import type { NewCallLog } from '../../db/schema'

/** The 13 columns of a call log row, in the order `prepareCallLogInsert` takes its values. */
export const CALL_LOG_COLUMNS = [
  'id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id',
  'session_id', 'call_id', 'details', 'user_id', 'trace_id', 'request_id',
] as const satisfies ReadonlyArray<keyof NewCallLog>

/** A call log row as positional values, in CALL_LOG_COLUMNS order. */
export type CallLogValues = Array<string | null>

/** A row object as the positional values `prepareCallLogInsert` takes. */
export const callLogValues = (row: NewCallLog): CallLogValues => CALL_LOG_COLUMNS.map((c) => row[c] ?? null) as CallLogValues
