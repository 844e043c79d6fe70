import type { ImportFormat } from './import-format'

/*
 * The room a bulk import needs on the store's disk, estimated before it starts (issue 36): a bulk
 * load writes its rows, rebuilds 15 indexes and fills two full-text indexes in one transaction, so
 * a disk that fills near the end has cost the whole load's time and kept nothing. The store grows
 * by about a fixed cost per record (the row's overhead, its index entries and postings) plus a
 * share of the record's text, fitted on two files on 2026-11-28: 60,000 short records (18.0 MB
 * NDJSON, the store grew 54.0 MB) and the medium demo's export (150,190 records, 87.8 MB, 181.7 MB);
 * the fit gives both within 3%.
 */
const STORE_BYTES_PER_RECORD = 600
const STORE_BYTES_PER_INPUT_BYTE = 1.1
/** When the file's first bytes cannot tell: the short end of real exports (400-700 bytes a record). */
const FALLBACK_BYTES_PER_RECORD = 400
/** Room beyond the estimate: the journal of the pages the load changes, the rebuild's scratch. */
const MARGIN = 1.1

/**
 * Records in a sample of the file: a call log record holds one `log_level` key (JSON, NDJSON); a
 * CSV file holds a header, then one line per record (a message with a line break counts twice,
 * which only makes the estimate safer). Null when the sample holds none.
 */
export function recordsInSample(sample: string, format: ImportFormat): number | null {
  const count = format === 'csv' ? Math.max(0, sample.split('\n').length - 2) : sample.split('"log_level"').length - 1
  return count > 0 ? count : null
}

/** Bytes a bulk import of `bytesTotal` needs free on the store's disk, from a sample of its first bytes. */
export function bulkRoomNeeded(bytesTotal: number, format: ImportFormat, sample?: string): number {
  const sampled = sample ? recordsInSample(sample, format) : null
  const bytesPerRecord = sampled && sample ? Buffer.byteLength(sample) / sampled : FALLBACK_BYTES_PER_RECORD
  const records = bytesTotal / bytesPerRecord
  return Math.ceil((records * STORE_BYTES_PER_RECORD + bytesTotal * STORE_BYTES_PER_INPUT_BYTE) * MARGIN)
}
