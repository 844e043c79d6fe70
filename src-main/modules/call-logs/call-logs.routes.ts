import { createRoute } from '@hono/zod-openapi'
import { viewFromSearchParams } from '../../../src-shared/call-log-view'
import { callLogListSchema, callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import { toValidationErrors } from '../../kit/http/validation-errors'
import { type ExportFormat, exportFileName } from './call-logs.export'
import type { CallLogsService } from './call-logs.service'
import { LogQueryTooSlowError } from './log-query.slow'

/** The stream with its first chunk already read: a failure of that read rejects here, before any byte is sent. */
async function primed(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader()
  const first = await reader.read()
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done) controller.close()
      else controller.enqueue(first.value)
    },
    async pull(controller) {
      const next = await reader.read()
      if (next.done) controller.close()
      else controller.enqueue(next.value)
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 })
}

const getCallLogs = createRoute({
  method: 'get',
  path: '/logs/calls',
  operationId: 'get_call_logs',
  tags: ['Logs'],
  summary: 'Get call logs',
  description: 'Call log records, newest first. A tenant-scoped token sees only its tenant\'s records.',
  security: [{ HTTPBearer: [] }],
  request: { query: callLogQuerySchema },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: callLogListSchema } } },
    ...standardResponses(),
  },
})

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson; charset=utf-8',
}

/**
 * `GET /logs/calls`, and the console's downloads `GET /export/call-logs.{csv,ndjson}`: outside the
 * API spec (not in /openapi.json), the filtered view with the console's URL parameters
 * (src-shared/call-log-view.ts), same bearer auth as the API.
 */
export function callLogRoutes(callLogs: CallLogsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/logs/calls', requireBearer(authenticate))
  app.openapi(getCallLogs, async (c) => {
    const body = await callLogs.listJson(c.get('principal'), c.req.valid('query'))
    return c.body(body, 200, { 'Content-Type': 'application/json' }) as never
  })
  for (const format of ['csv', 'ndjson'] as const) {
    const path = `/export/call-logs.${format}`
    app.use(path, requireBearer(authenticate))
    app.get(path, async (c) => {
      const parsed = callLogFilterSchema.safeParse(viewFromSearchParams(new URL(c.req.url).searchParams))
      if (!parsed.success) return c.json({ detail: toValidationErrors('query', parsed.error.issues, undefined) }, 422)
      // The first chunk is read before answering, so a query stopped at its budget is a 422 naming its slow part, not a cut download.
      let body: ReadableStream<Uint8Array>
      try {
        body = await primed(callLogs.exportStream(c.get('principal'), parsed.data, format))
      } catch (error) {
        if (!(error instanceof LogQueryTooSlowError)) throw error
        return c.json({ detail: [{ type: 'query_too_slow', loc: ['query', 'query'], msg: error.message, input: parsed.data.query, ctx: { parts: error.parts } }] }, 422)
      }
      return c.body(body, 200, {
        'Content-Type': CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="${exportFileName(format)}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      })
    })
  }
  return app
}
