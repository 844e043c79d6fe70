import { createRoute } from '@hono/zod-openapi'
import { callLogListSchema, callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { requireBearer } from '../../transport/http/auth'
import type { HttpApp } from '../../transport/http/app'
import { standardResponses } from '../../transport/http/responses'
import type { Service } from '../../service'

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

export function registerCallLogRoutes(app: HttpApp, service: Service): void {
  app.use('/logs/calls', requireBearer(service.tokens))
  app.openapi(getCallLogs, async (c) => {
    const body = await service.callLogs.listJson(c.get('principal'), c.req.valid('query'))
    return c.body(body, 200, { 'Content-Type': 'application/json' }) as never
  })
}
