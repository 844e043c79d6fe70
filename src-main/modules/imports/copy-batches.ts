import { copyLines } from '../../db/pg-copy-text'
import { STORED_CALL_LOG_COLUMNS } from '../call-logs/call-log-values'
import { type AnyBatch, type ParsedBatch, type RefusedRecord, unpackBatch } from './parsed-batches'

/**
 * A parsed batch as a PostgreSQL store takes it: its rows already in COPY's text format, each
 * prefixed by its record number (the staging table's `ord`: file order, for seq and for which of
 * two records with the same id wins), as UTF-8 bytes. The parse worker writes batches this way for
 * a PostgreSQL store (parse-worker.ts), so the thread in between only forwards bytes to the
 * server's socket, as it forwards packed batches to SQLite's writer thread.
 */
export interface CopyBatch {
  copy: Uint8Array
  /** Rows in `copy`. */
  rows: number
  refused: RefusedRecord[]
  /** Records read so far in the file, valid or not. */
  recordsRead: number
}

const DETAILS = STORED_CALL_LOG_COLUMNS.indexOf('details')
/** A `\u0000` escape in JSON text: after an even number of backslashes (an odd one escapes the backslash). */
const NUL_ESCAPE = /(?:^|[^\\])(?:\\\\)*\\u0000/

/**
 * Why PostgreSQL cannot hold a row SQLite can, or null: text there cannot contain U+0000, and a
 * `\u0000` escape in details could not be read as jsonb by the queries that do. One such record
 * is refused with a reason rather than failing its whole batch in COPY.
 */
function pgRefusal(values: readonly (string | null)[]): string | null {
  for (const [i, value] of values.entries()) {
    const nul = value !== null && (value.includes('\0') || (i === DETAILS && NUL_ESCAPE.test(value)))
    if (nul) return `${STORED_CALL_LOG_COLUMNS[i]}: contains the character U+0000 (NUL), which a PostgreSQL store cannot hold`
  }
  return null
}

/** A parsed batch as COPY text, each row numbered by its record number in the file. */
export function copyBatch(parsed: ParsedBatch): CopyBatch {
  let { rows, positions, refused } = parsed
  const unfit = rows.map(pgRefusal)
  if (unfit.some((reason) => reason !== null)) {
    const kept = rows.flatMap((_, i) => (unfit[i] === null ? [i] : []))
    refused = [...refused, ...rows.flatMap((_, i) => (unfit[i] === null ? [] : [{ record: positions[2 * i]!, line: positions[2 * i + 1]!, reason: unfit[i]! }]))]
    refused.sort((a, b) => a.record - b.record)
    positions = kept.flatMap((i) => [positions[2 * i]!, positions[2 * i + 1]!])
    rows = kept.map((i) => rows[i]!)
  }
  const text = copyLines(rows, (i) => positions[2 * i]!)
  return { copy: Buffer.from(text), rows: rows.length, refused, recordsRead: parsed.recordsRead }
}

/** Any batch (packed for SQLite's writer, parsed in place, or already COPY text) as a CopyBatch. */
export function toCopyBatch(batch: AnyBatch | CopyBatch): CopyBatch {
  if ('copy' in batch) return batch
  return copyBatch(unpackBatch(batch))
}
