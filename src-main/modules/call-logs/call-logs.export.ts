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

/** One chunk of the export: its bytes and how many records they hold (none for the CSV header). */
export interface ExportChunk {
  bytes: Uint8Array
  rows: number
}

const encoder = new TextEncoder()

/**
 * The filtered view newest first, with no row cap, read in keyset chunks as the consumer asks
 * for them: memory stays at about one chunk, and a consumer that stops (return()) stops the reads.
 * A read that fails (a damaged page) throws out of the generator after the chunks before it.
 */
export async function* exportChunks(
  db: Kysely<Database>,
  json: JsonReads,
  principal: Principal,
  filter: CallLogFilter,
  format: ExportFormat,
  /** Each chunk's read of a query-language filter stops after this many ms (log-query.slow.ts). */
  budgetMs = defaultQueryBudget(),
): AsyncGenerator<ExportChunk, void, undefined> {
  const resolved = resolveFilter(principal, filter)
  let cursor: CallLogCursor | null = null
  let started = false
  for (;;) {
    let next: { bytes: Uint8Array; rows: number; cursor: CallLogCursor | null } | null = null
    if (resolved !== 'nothing') {
      // Lines built by the query and joined on a reader (a record's JSON, or its CSV line by
      // csvField's rules): the main thread only forwards the bytes. Read before the CSV header
      // goes out, so a query stopped at its budget fails before the first byte (the HTTP route's 422).
      next = await withinBudget(db, resolved, budgetMs, (f) => searchPageLines(db, json, f, cursor, CHUNK_ROWS, format))
      cursor = next.cursor
    }
    if (!started) {
      started = true
      if (format === 'csv') yield { bytes: encoder.encode(csvHeader()), rows: 0 }
    }
    if (next && next.rows > 0) yield { bytes: next.bytes, rows: next.rows }
    if (!next || next.rows < CHUNK_ROWS) return
  }
}

/**
 * The export as a byte stream (the HTTP download). The stream pulls a chunk only when the client
 * has taken the last one; a client that goes away (the stream cancelled) stops the reads; a read
 * that fails errors the stream, so the HTTP body ends without its last chunk and the client sees
 * a cut transfer, never a short file that looks whole.
 */
export function exportStream(
  db: Kysely<Database>,
  json: JsonReads,
  principal: Principal,
  filter: CallLogFilter,
  format: ExportFormat,
  /** Told how many records each chunk held. */
  onRows?: (n: number) => void,
  budgetMs = defaultQueryBudget(),
): ReadableStream<Uint8Array> {
  const chunks = exportChunks(db, json, principal, filter, format, budgetMs)
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const step = await chunks.next()
      if (step.done) return controller.close()
      if (step.value.rows > 0) onRows?.(step.value.rows)
      controller.enqueue(step.value.bytes)
    },
    async cancel() {
      await chunks.return()
    },
  }, { highWaterMark: 1 })
}

/** The name a download or the desktop's save dialog proposes for an export. */
export const exportFileName = (format: ExportFormat, now = new Date()): string =>
  `call-logs-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${format}`
