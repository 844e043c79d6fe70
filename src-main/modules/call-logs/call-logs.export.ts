import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Kysely } from 'kysely'
import type BetterSqlite3 from 'better-sqlite3'
import { viewFromSearchParams } from '../../../src-shared/call-log-view'
import { type CallLogCursor, callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import type { CallLogRow, Database } from '../../db/schema'
import { requireBearer } from '../../transport/http/auth'
import type { HttpApp } from '../../transport/http/app'
import { toValidationErrors } from '../../transport/http/validation-errors'
import type { Service } from '../../service'
import type { Principal } from '../tokens/tokens.service'
import { pageQuery } from './call-logs.search.repo'
import { resolveFilter } from './call-logs.search'
import { toCallLog } from './call-logs.service'
import { csvHeader, csvLine, ndjsonLine } from './call-logs.lines'

export type ExportFormat = 'csv' | 'ndjson'


/** Rows per read. Each read is a fresh keyset query, so the connection is free between reads. */
const CHUNK_ROWS = 2000

/**
 * The filtered view as a byte stream, newest first, with no row cap. Rows are read in keyset
 * chunks with better-sqlite3's iterate() over the kysely-compiled page query: memory stays at one
 * chunk, and no statement stays open while the client is slow — an open iterator would make every
 * write on this connection (token touches, imports) fail with "connection is busy".
 */
export function exportStream(
  db: Kysely<Database>,
  sqlite: BetterSqlite3.Database,
  principal: Principal,
  filter: ReturnType<typeof callLogFilterSchema.parse>,
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
    pull(controller) {
      let text = ''
      if (!started) {
        started = true
        if (format === 'csv') text += csvHeader()
      }
      if (!done && resolved !== 'nothing') {
        const compiled = pageQuery(db, resolved, cursor, CHUNK_ROWS).compile()
        const statement = sqlite.prepare<unknown[], CallLogRow>(compiled.sql)
        let n = 0
        for (const row of statement.iterate(...(compiled.parameters as unknown[]))) {
          text += toLine(toCallLog(row))
          cursor = { timestamp: row.timestamp, seq: row.seq }
          n++
        }
        onRows?.(n)
        if (n < CHUNK_ROWS) done = true
      }
      if (text) controller.enqueue(encoder.encode(text))
      if (done) controller.close()
    },
  }, { highWaterMark: 1 })
}

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
}

/**
 * Console download routes, outside the API spec (not in /openapi.json): the filtered call log view
 * with the console's URL parameters (src-shared/call-log-view.ts), same bearer auth as the API.
 */
export function registerCallLogExportRoutes(app: HttpApp, service: Service): void {
  for (const format of ['csv', 'ndjson'] as const) {
    const path = `/export/call-logs.${format}`
    app.use(path, requireBearer(service.tokens))
    app.get(path, (c) => {
      const parsed = callLogFilterSchema.safeParse(viewFromSearchParams(new URL(c.req.url).searchParams))
      if (!parsed.success) return c.json({ detail: toValidationErrors('query', parsed.error.issues, undefined) }, 422)
      return c.body(exportStream(service.db, service.handle.sqlite, c.get('principal'), parsed.data, format), 200, {
        'Content-Type': CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="${exportFileName(format)}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      })
    })
  }
}

/** The filtered view written to a file (the desktop app's export, after its save dialog). */
export async function exportToFile(service: Service, principal: Principal, filter: ReturnType<typeof callLogFilterSchema.parse>, format: ExportFormat, path: string): Promise<{ path: string; rows: number }> {
  let rows = 0
  const stream = exportStream(service.db, service.handle.sqlite, principal, filter, format, (n) => (rows += n))
  await pipeline(Readable.fromWeb(stream as never), createWriteStream(path))
  return { path, rows }
}

export const exportFileName = (format: ExportFormat, now = new Date()): string =>
  `call-logs-${now.toISOString().slice(0, 19).replace(/[-:]/g, '')}.${format}`
