import { once } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import type { Context } from 'hono'
import { type Authenticate, requireAdmin, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { normalizeBaseUrl } from '../pull/remote-client'
import { LOCAL_SOURCE } from '../sources/sources.service'
import type { ImportsService } from './imports.service'
import { detectFormat, formatFromContentType, IMPORT_FORMATS, type ImportFormat } from './import-format'

/** Reads the first chunk of a stream for format detection and puts it back. */
async function peek(stream: Readable): Promise<string> {
  let chunk: Buffer | null = stream.read()
  while (chunk === null && !stream.readableEnded) {
    await Promise.race([once(stream, 'readable'), once(stream, 'end')])
    chunk = stream.read()
  }
  if (chunk === null) return ''
  stream.unshift(chunk)
  return chunk.subarray(0, 512).toString('utf8')
}

/**
 * The upload as a Node stream. Served by the Node listener, the request's own socket stream: the
 * adaptor's web stream of it, and Node's conversion back, each cost this thread a promise and
 * objects per chunk for nothing (both keep backpressure, so the socket is paused either way while
 * the parser is behind). Elsewhere (`app.request` in tests) the request's web body.
 */
function uploadOf(c: Context): Readable | null {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (incoming) return incoming
  return c.req.raw.body ? Readable.fromWeb(c.req.raw.body as never) : null
}

/** `?as_source=`: the stored key of the source the records go under ('' local), or why it names none. */
export function importSourceKey(value: string | null): { key: string } | { problem: string } {
  if (value === null || value.trim().toLowerCase() === LOCAL_SOURCE) return { key: '' }
  try {
    return { key: normalizeBaseUrl(value.trim()) }
  } catch (error) {
    return { problem: `Value error, expected 'local' or a backend's base URL (http or https): ${(error as Error).message}` }
  }
}

/**
 * `POST /imports/call-logs`: the console's upload (outside the API spec, docs/api.md "Imports").
 * The body is the file itself, streamed into the importer; the format comes from `?format=`, else
 * the Content-Type, else the file name and first bytes. Admin only: imports write to the store.
 * `?as_source=` stores the records under a pulled backend's source instead of `local` (what
 * `callscope push` sends for the rows a laptop pulled); a token bound to a source, or a request
 * limited to one (`?source=`), may write that source only.
 */
export function importRoutes(imports: ImportsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  const path = '/imports/call-logs'
  app.use(path, requireBearer(authenticate), requireAdmin)
  app.post(path, async (c) => {
    const url = new URL(c.req.url)
    const fileName = (url.searchParams.get('file_name') ?? 'upload').slice(0, 255)
    const asked = url.searchParams.get('format')
    if (asked !== null && !(IMPORT_FORMATS as readonly string[]).includes(asked)) {
      return c.json({ detail: [{ type: 'enum', loc: ['query', 'format'], msg: `Input should be ${IMPORT_FORMATS.map((f) => `'${f}'`).join(', ')}`, input: asked }] }, 422)
    }
    const into = importSourceKey(url.searchParams.get('as_source'))
    if ('problem' in into) return c.json({ detail: [{ type: 'value_error', loc: ['query', 'as_source'], msg: into.problem, input: url.searchParams.get('as_source') }] }, 422)
    const { source } = c.get('principal')
    if (source !== undefined && source !== into.key) {
      const name = (key: string) => (key === '' ? LOCAL_SOURCE : key)
      return c.json({ detail: `Not enough permissions: this request may write only the source '${name(source)}', not '${name(into.key)}'` }, 403)
    }
    const body = uploadOf(c)
    if (!body) return c.json({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] }, 422)
    const format: ImportFormat = (asked as ImportFormat | null) ?? formatFromContentType(c.req.header('content-type')) ?? detectFormat(fileName, await peek(body))
    const length = Number(c.req.header('content-length'))
    const report = await imports.importCallLogs(body, {
      source: fileName,
      callLogSource: into.key,
      format,
      bytesTotal: Number.isFinite(length) && length > 0 ? length : null,
      batchSize: 5000,
    })
    // The store's own fault (a full disk, damage) is the server's: 507 or 503, with the report of
    // what was kept. A file that could not be read on is the client's: 422.
    // `fault` picks the status; the body is the import's report as its history keeps it.
    const { fault, ...kept } = report
    if (kept.status === 'failed') return c.json({ detail: kept.failure, import: kept }, fault === 'full' ? 507 : fault === 'damaged' ? 503 : 422)
    return c.json(kept, 201, { Location: `/imports/${kept.id}` })
  })
  return app
}
