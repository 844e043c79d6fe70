import { createRoute } from '@hono/zod-openapi'
import { callLogSchema } from '../../../src-shared/schemas/call-log'
import { callLogStreamQuerySchema, streamQueryFilter } from '../../../src-shared/schemas/call-log-stream'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import { apiRecord, type TailBatch } from './call-logs.tail'
import type { CallLogsService } from './call-logs.service'

const streamCallLogs = createRoute({
  method: 'get',
  path: '/logs/calls/stream',
  operationId: 'stream_call_logs',
  tags: ['Live tail (Callscope extension)'],
  summary: 'Follow call logs as they are stored',
  description:
    "Not one of the service interface's operations. Streams call log records as NDJSON (one record per line, the shape `GET /logs/calls` returns) while they are stored, by anything that writes the store (import, pull and sync, the app), in the order they were stored, within a second. `tail=N` first sends the newest N matching records already stored. The response never ends on its own: close the connection to stop. A tenant-scoped token sees only its tenant's records.",
  security: [{ HTTPBearer: [] }],
  request: { query: callLogStreamQuerySchema },
  responses: {
    200: { description: 'Records, one JSON object per line, as they are stored', content: { 'application/x-ndjson': { schema: callLogSchema } } },
    ...standardResponses(),
  },
})

const encoder = new TextEncoder()

/** A batch as NDJSON: the API's record of each line, without the console's seq and highlights. */
function ndjson(batch: TailBatch): Uint8Array {
  let text = ''
  for (const line of batch.lines) text += `${JSON.stringify(apiRecord(line))}\n`
  return encoder.encode(text)
}

/** `GET /logs/calls/stream`. */
export function callLogStreamRoutes(callLogs: CallLogsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/logs/calls/stream', requireBearer(authenticate))
  app.openapi(streamCallLogs, (c) => {
    const query = c.req.valid('query')
    const stop = new AbortController()
    const batches = callLogs.follow(c.get('principal'), streamQueryFilter(query), { backlog: query.tail }, stop.signal)
    // Pulled, not pushed: a client that reads slowly slows the queries, never fills memory.
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          const step = await batches.next()
          if (step.done) return controller.close()
          if (step.value.lines.length > 0) return controller.enqueue(ndjson(step.value))
        }
      },
      cancel() {
        stop.abort()
      },
    })
    return c.body(body, 200, {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    }) as never
  })
  return app
}
