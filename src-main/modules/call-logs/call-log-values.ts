import { deserialize, serialize } from 'node:v8'
import type { Packed } from '../../lib/worker-feed'
import type { CallLog } from '../../../src-shared/schemas/call-log'
import type { NewCallLog } from '../../db/schema'

/**
 * The 13 fields of a call log, in the API's order: the store's columns (the order
 * `prepareCallLogInsert` takes its values in) and the export's CSV header alike.
 */
export const CALL_LOG_COLUMNS = [
  'id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id',
  'session_id', 'call_id', 'details', 'user_id', 'trace_id', 'request_id',
] as const satisfies ReadonlyArray<keyof NewCallLog & keyof CallLog>

/** What the store keeps of a record besides the API's fields: the level as it was spelled. */
export const STORED_CALL_LOG_COLUMNS = [...CALL_LOG_COLUMNS, 'log_level_original'] as const satisfies ReadonlyArray<keyof NewCallLog>

/** A call log row as positional values, in STORED_CALL_LOG_COLUMNS order. */
export type CallLogValues = Array<string | null>

/**
 * Rows' values as bytes (v8's serialisation): how a window or batch of rows crosses from the thread
 * that checked them to the one that stores them, moved rather than copied, unopened in between.
 */
export type PackedCallLogValues = Packed

export const packCallLogValues = (values: CallLogValues[]): PackedCallLogValues => ({ packed: serialize(values) })
export const unpackCallLogValues = ({ packed }: PackedCallLogValues): CallLogValues[] => deserialize(packed) as CallLogValues[]

/** A row object as the positional values `prepareCallLogInsert` takes. */
export const callLogValues = (row: NewCallLog): CallLogValues => STORED_CALL_LOG_COLUMNS.map((c) => row[c] ?? null) as CallLogValues
