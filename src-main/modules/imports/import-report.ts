import { storeFaultKind, type StoreFaultKind } from '../../../src-shared/store-faults'
import { toStoreFault } from '../../db/store-faults'
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

/** Why the store refused an import's records: the message its report and record keep, and the fault's kind. */
export interface StoreFailure {
  message: string
  /** A full disk or damage (REST 507, 503); null for another store error. */
  fault: StoreFaultKind | null
}

/**
 * The store's failure as an import tells it: what was kept (`kept`: the records of the batches
 * committed before it; null for a bulk load, which keeps nothing), and for a full disk or damage
 * where the store lives and what to do (src-shared/store-faults.ts).
 */
export function storeFailureOf(error: unknown, storePath: string, kept: number | null): StoreFailure {
  const outcome =
    kept === null || kept === 0
      ? 'Nothing of it was stored.'
      : `The ${kept.toLocaleString('en-US')} new records of the batches before it are stored; the rest of the file was not.`
  const named = toStoreFault(error, storePath, 'The import', { outcome })
  const fault = storeFaultKind(named)
  return { message: fault ? (named as Error).message : `the store could not take the records: ${(error as Error).message}`, fault }
}
