import type { Readable } from 'node:stream'
import { deserialize, serialize } from 'node:v8'
import { checkCallLog } from '../call-logs/call-log-record'
import { callLogValues, type CallLogValues } from '../call-logs/call-log-values'
import type { ImportFormat } from './import-format'
import { readRecords, type SourceRecord } from './record-readers'
import { movableBuffers, type Packed } from '../../lib/worker-feed'

/** A record the parser refused: its 1-based position in the file, the line it starts on, why. */
export interface RefusedRecord {
  record: number
  line: number
  reason: string
}

/**
 * What the parsing stage hands the writer: store-ready values (call_logs' columns in
 * STORED_CALL_LOG_COLUMNS order) and the refused records, in file order. Plain arrays and numbers, so a
 * batch crosses a worker boundary as a cheap structured clone.
 */
export interface ParsedBatch {
  rows: CallLogValues[]
  /** `positions[2i]` is the record number of `rows[i]`, `positions[2i + 1]` its line. */
  positions: number[]
  refused: RefusedRecord[]
  /** Records read so far in the file, valid or not. */
  recordsRead: number
}

/**
 * A batch as bytes (v8's serialisation of a ParsedBatch). The parse worker sends batches packed, and
 * the thread in between (the one answering requests) passes them to the writer thread as they are:
 * only the writer rebuilds the rows, so a large import costs the thread in between next to nothing.
 */
export type PackedBatch = Packed

export type AnyBatch = ParsedBatch | PackedBatch

export const packBatch = (batch: ParsedBatch): PackedBatch => ({ packed: serialize(batch) })

/**
 * The buffer a packed batch can move in (transferred to another thread rather than copied): its
 * own, when its bytes fill it alone, as they do once the parse worker has moved or copied them here.
 */
export function packedBuffers(batch: AnyBatch): ArrayBuffer[] {
  return 'packed' in batch ? movableBuffers(batch.packed) : []
}

/** The buffer of `bytes`, when they fill it alone (so moving it gives up nothing else), for a transfer list. */
export const unpackBatch = (batch: AnyBatch): ParsedBatch => ('packed' in batch ? (deserialize(batch.packed) as ParsedBatch) : batch)

const newBatch = (recordsRead: number): ParsedBatch => ({ rows: [], positions: [], refused: [], recordsRead })

/**
 * Reads, parses and validates the records of `input` in batches of about `size` records.
 * The whole import's CPU work outside SQLite happens here, which is why it can run in a worker
 * (parse-worker.ts) while the main thread writes. Throws ImportFormatError where the file cannot
 * be read further, after yielding the records before that point.
 */
export async function* parsedBatches(input: Readable, format: ImportFormat, size: number): AsyncGenerator<ParsedBatch> {
  let recordsRead = 0
  let batch = newBatch(0)
  const groups = readRecords(input, format)
  for (;;) {
    let next: IteratorResult<SourceRecord[]>
    try {
      next = await groups.next()
    } catch (error) {
      // The records before the point the file breaks at are still the user's: hand them over first.
      if (batch.rows.length || batch.refused.length) yield batch
      throw error
    }
    if (next.done) break
    for (const source of next.value) {
      const record = ++recordsRead
      if ('reason' in source) batch.refused.push({ record, line: source.line, reason: source.reason })
      else {
        const checked = checkCallLog(source.value)
        if ('reason' in checked) batch.refused.push({ record, line: source.line, reason: checked.reason })
        else {
          batch.rows.push(callLogValues(checked.row))
          batch.positions.push(record, source.line)
        }
      }
      batch.recordsRead = recordsRead
      if (batch.rows.length + batch.refused.length >= size) {
        yield batch
        batch = newBatch(recordsRead)
      }
    }
  }
  if (batch.rows.length || batch.refused.length) yield batch
}
