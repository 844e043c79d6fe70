import type { Kysely } from 'kysely'
import type { CallLogCursor, CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { searchPage } from './call-logs.search.repo'
import { resolveFilter } from './call-logs.search'
import { toCallLog } from './call-log-row'
import { csvHeader, csvLine, ndjsonLine } from './call-logs.lines'

export type ExportFormat = 'csv' | 'ndjson'

/**
 * Rows per read. Each read is a fresh keyset query, so the connection is free between reads; 500
 * keeps the formatting of one read on the main thread to a few milliseconds (docs/benchmarks.md,
 * Responsiveness: 2,000 held a /healthz probe up to 95 ms).
 */
const CHUNK_ROWS = 500

/**
 * The filtered view as a byte stream, newest first, with no row cap. Rows are read in keyset
 * chunks (repo.searchPage), each an ordinary query: with the read pool it runs on a reader thread,
 * memory stays at about one chunk, and no statement stays open while a client reads slowly.
 */
export function exportStream(
  db: Kysely<Database>,
  principal: Principal,
  filter: CallLogFilter,
  format: ExportFormat,
  /** Told how many records each chunk held. */
  onRows?: (n: number) => void,
): ReadableStream<Uint8Array> {
  const resolved = resolveFilter(principal, filter)
  const encoder = new TextEncoder()
  const toLine = format === 'csv' ? csvLine : ndjsonLine
  let cursor: CallLogCursor | null = null
  let started = false
  let done = resolved === 'nothing'
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = ''
      if (!started) {
        started = true
        if (format === 'csv') text += csvHeader()
      }
      if (!done && resolved !== 'nothing') {
        const rows = await searchPage(db, resolved, cursor, CHUNK_ROWS)
        for (const row of rows) text += toLine(toCallLog(row))
        const last = rows.at(-1)
        if (last) cursor = { timestamp: last.timestamp, seq: last.seq }
        onRows?.(rows.length)
        if (rows.length < CHUNK_ROWS) done = true
      }
      if (text) controller.enqueue(encoder.encode(text))
      if (done) controller.close()
    },
  }, { highWaterMark: 1 })
}

/** The name a download or the desktop's save dialog proposes for an export. */
export const exportFileName = (format: ExportFormat, now = new Date()): string =>
  `call-logs-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${format}`
