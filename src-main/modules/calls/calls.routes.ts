import { createRoute } from '@hono/zod-openapi'
import { callListQuerySchema, callListSchema } from '../../../src-shared/schemas/call'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import type { CallsService } from './calls.service'

const listCalls = createRoute({
  method: 'get',
  path: '/calls',
  operationId: 'list_calls',
  tags: ['Calls (Callscope extension)'],
  summary: 'List calls',
  description:
    "Not one of the service interface's operations: Callscope's calls list. Calls filtered by tenant, agent, squad, status, end reason, direction, phone number, duration and start date, in pages that stay stable while calls arrive (pass `next_cursor` as `cursor`), with the filter's counts per status and end reason. A tenant-scoped token sees only its tenant's calls.",
  security: [{ HTTPBearer: [] }],
  request: { query: callListQuerySchema },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: callListSchema } } },
    ...standardResponses(),
  },
})

/** `GET /calls`. */
export function callRoutes(calls: CallsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/calls', requireBearer(authenticate))
  app.openapi(listCalls, async (c) => c.json(await calls.list(c.get('principal'), c.req.valid('query')), 200))
  return app
}
