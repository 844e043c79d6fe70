import type { ImportFormat } from './import-format'
import type { ImportProgressColumns, ImportRow } from './imports.repo'

/** Refused records kept in an import's report; the counts cover the rest. */
export const MAX_REPORTED_ERRORS = 100

export interface ImportError {
  /** 1-based position of the record in the file. */
  record: number
  /** Line the record starts on (for CSV: the line it ends on). */
  line: number
  reason: string
}

/** A refused record counted on the import's row, and kept for its report while there is room. */
export function refuseRecord(row: ImportRow, errors: ImportError[], refused: ImportError): void {
  row.invalid++
  if (errors.length < MAX_REPORTED_ERRORS) errors.push({ record: refused.record, line: refused.line, reason: refused.reason })
}

/** The import's counts as its record stores them, on either store's sink. */
export function progressColumns(row: ImportRow, errors: ImportError[], bytesRead: number): ImportProgressColumns {
  return {
    bytes_read: bytesRead,
    records_read: row.records_read,
    inserted: row.inserted,
    duplicates: row.duplicates,
    invalid: row.invalid,
    errors: JSON.stringify(errors),
    updated_at: new Date().toISOString(),
  }
}

export interface ImportReport {
  id: string
  source: string
  format: ImportFormat
  status: 'running' | 'completed' | 'failed' | 'interrupted'
  startedAt: string
  updatedAt: string
  finishedAt: string | null
  bytesTotal: number | null
  bytesRead: number
  recordsRead: number
  inserted: number
  duplicates: number
  invalid: number
  errors: ImportError[]
  /** Why the file could not be read to its end (status failed). */
  failure: string | null
  durationMs: number | null
  /** The source the records were stored under: '' Callscope's own, else a pulled backend's base URL. */
  callLogSource: string
}

export const toReport = (row: ImportRow): ImportReport => ({
  id: row.id,
  source: row.source,
  format: row.format,
  status: row.status,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  bytesTotal: row.bytes_total,
  bytesRead: row.bytes_read,
  recordsRead: row.records_read,
  inserted: row.inserted,
  duplicates: row.duplicates,
  invalid: row.invalid,
  errors: JSON.parse(row.errors) as ImportError[],
  failure: row.failure,
  durationMs: row.duration_ms,
  callLogSource: row.call_log_source,
})
