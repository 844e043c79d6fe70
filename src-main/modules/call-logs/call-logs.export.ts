import type { Kysely } from 'kysely'
import type { CallLogCursor, CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { JsonReads } from '../../db/json-reads'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { type ResolvedCallLogFilter, searchPageLines } from './call-logs.search.repo'
import { defaultQueryBudget, resolveFilter, withinBudget } from './call-logs.search'
import { csvHeader } from './call-logs.lines'

export type ExportFormat = 'csv' | 'ndjson'

/**
 * Rows per read. Each read is a fresh keyset query, so the connection is free between reads and no
 * statement stays open while a client reads slowly; a chunk's bytes are what the stream holds.
 */
const CHUNK_ROWS = 500

/** One chunk of the export: its bytes, how many records, and where the next one starts. */
interface Chunk {
  bytes: Uint8Array
  rows: number
  cursor: CallLogCursor | null
}

const encoder = new TextEncoder()

/**
 * The filtered view as a byte stream, newest first, with no row cap, read in keyset chunks. The
 * stream pulls a chunk only when the client has taken the last one, so memory stays at about one
 * chunk, and a client that goes away (the stream cancelled) stops the reads.
 */
export function exportStream(
  db: Kysely<Database>,
  json: JsonReads,
  principal: Principal,
  filter: CallLogFilter,
  format: ExportFormat,
  /** Told how many records each chunk held. */
  onRows?: (n: number) => void,
  /** Each chunk's read of a query-language filter stops after this many ms (log-query.slow.ts). */
  budgetMs = defaultQueryBudget(),
): ReadableStream<Uint8Array> {
  const resolved = resolveFilter(principal, filter)
  let cursor: CallLogCursor | null = null
  let started = false
  let done = resolved === 'nothing'
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: Chunk | null = null
      if (!done && resolved !== 'nothing') {
        // Lines built by the query and joined on a reader (a record's JSON, or its CSV line by
        // csvField's rules): the main thread only forwards the bytes. Read before the CSV header
        // goes out, so a query stopped at its budget fails before the first byte (the HTTP route's 422).
        next = await withinBudget(db, resolved, budgetMs, (f) => searchPageLines(db, json, f, cursor, CHUNK_ROWS, format))
        cursor = next.cursor
        onRows?.(next.rows)
        if (next.rows < CHUNK_ROWS) done = true
      }
      if (!started) {
        started = true
        if (format === 'csv') controller.enqueue(encoder.encode(csvHeader()))
      }
      if (next && next.bytes.byteLength > 0) controller.enqueue(next.bytes)
      if (done) controller.close()
    },
  }, { highWaterMark: 1 })
}

/** The name a download or the desktop's save dialog proposes for an export. */
export const exportFileName = (format: ExportFormat, now = new Date()): string =>
  `call-logs-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${format}`
