import type { Kysely } from 'kysely'
import type { CallLogCursor, CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { JsonReads } from '../../db/json-reads'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { type ResolvedCallLogFilter, searchPage, searchPageLines } from './call-logs.search.repo'
import { resolveFilter } from './call-logs.search'
import { toCallLog } from './call-log-row'
import { csvHeader, csvLine } from './call-logs.lines'

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

/** NDJSON lines built by the query and joined beside it (a reader thread), handed over as bytes. */
const ndjsonChunk = (db: Kysely<Database>, json: JsonReads, f: ResolvedCallLogFilter, cursor: CallLogCursor | null): Promise<Chunk> =>
  searchPageLines(db, json, f, cursor, CHUNK_ROWS)

/** CSV lines, formatted here from the rows (RFC 4180 and the formula guard: call-logs.lines.ts). */
async function csvChunk(db: Kysely<Database>, f: ResolvedCallLogFilter, cursor: CallLogCursor | null): Promise<Chunk> {
  const rows = await searchPage(db, f, cursor, CHUNK_ROWS)
  let text = ''
  for (const row of rows) text += csvLine(toCallLog(row))
  const last = rows.at(-1)
  return { bytes: encoder.encode(text), rows: rows.length, cursor: last ? { timestamp: last.timestamp, seq: last.seq } : null }
}

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
): ReadableStream<Uint8Array> {
  const resolved = resolveFilter(principal, filter)
  let cursor: CallLogCursor | null = null
  let started = false
  let done = resolved === 'nothing'
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true
        if (format === 'csv') controller.enqueue(encoder.encode(csvHeader()))
      }
      if (!done && resolved !== 'nothing') {
        const chunk = format === 'csv' ? await csvChunk(db, resolved, cursor) : await ndjsonChunk(db, json, resolved, cursor)
        cursor = chunk.cursor
        onRows?.(chunk.rows)
        if (chunk.rows < CHUNK_ROWS) done = true
        if (chunk.bytes.byteLength > 0) controller.enqueue(chunk.bytes)
      }
      if (done) controller.close()
    },
  }, { highWaterMark: 1 })
}

/** The name a download or the desktop's save dialog proposes for an export. */
export const exportFileName = (format: ExportFormat, now = new Date()): string =>
  `call-logs-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${format}`
