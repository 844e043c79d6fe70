import { copyLines } from '../../db/pg-copy-text'
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

/** A parsed batch as COPY text, each row numbered by its record number in the file. */
export function copyBatch(parsed: ParsedBatch): CopyBatch {
  const text = copyLines(parsed.rows, (i) => parsed.positions[2 * i]!)
  return { copy: Buffer.from(text), rows: parsed.rows.length, refused: parsed.refused, recordsRead: parsed.recordsRead }
}

/** Any batch (packed for SQLite's writer, parsed in place, or already COPY text) as a CopyBatch. */
export function toCopyBatch(batch: AnyBatch | CopyBatch): CopyBatch {
  if ('copy' in batch) return batch
  return copyBatch(unpackBatch(batch))
}
