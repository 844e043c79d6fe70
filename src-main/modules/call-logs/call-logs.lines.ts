import type { CallLog } from '../../../src-shared/schemas/call-log'

/*
 * How one call log is written as a line of an export. Kept apart from call-logs.export.ts (which
 * serves exports over HTTP) because the import's parse worker needs the CSV columns too, and
 * loading the HTTP layer there would only slow its start.
 */

/** The 13 fields of a record, in the API's order: the CSV header. */
export const EXPORT_COLUMNS = [
  'id', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id',
  'session_id', 'call_id', 'details', 'user_id', 'trace_id', 'request_id',
] as const satisfies ReadonlyArray<keyof CallLog>

/**
 * RFC 4180: a field with a comma, quote, CR or LF is quoted and its quotes doubled; null is the
 * empty field; details is its JSON text. Values are written as stored (no formula-escaping
 * apostrophes), so the file round-trips through CSV readers.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export const csvHeader = (): string => `${EXPORT_COLUMNS.join(',')}\r\n`
export const csvLine = (log: CallLog): string => `${EXPORT_COLUMNS.map((c) => csvField(log[c])).join(',')}\r\n`
export const ndjsonLine = (log: CallLog): string => `${JSON.stringify(log)}\n`
