import { createRoute } from '@hono/zod-openapi'
import { callListQuerySchema, callListSchema } from '../../../src-shared/schemas/call'
import { callDetailSchema, callIdParamsSchema } from '../../../src-shared/schemas/call-detail'
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

const getCall = createRoute({
  method: 'get',
  path: '/calls/{call_id}',
  operationId: 'get_call',
  tags: ['Calls (Callscope extension)'],
  summary: 'Get a call',
  description:
    "Not one of the service interface's operations: Callscope's page of one call. Its header (the calls record, or for a call known only from its log lines, what they say), its log lines as spans of a waterfall (STT, LLM, TTS, tool, transfer and events), the turns with each response latency (caller stops → agent starts speaking) and their median and p90, the session's transcript, the transfer chain, the recording's metadata, ids to link to, and what the data lacks (`missing`). How spans and turns are derived: docs/api.md, \"Call detail\". A tenant-scoped token sees only its tenant's calls; any other id answers 404.",
  security: [{ HTTPBearer: [] }],
  request: { params: callIdParamsSchema },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: callDetailSchema } } },
    ...standardResponses({ notFound: true }),
  },
})

/** `GET /calls` and `GET /calls/{call_id}`. */
export function callRoutes(calls: CallsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/calls', requireBearer(authenticate))
  app.use('/calls/:call_id', requireBearer(authenticate))
  app.openapi(listCalls, async (c) => c.json(await calls.list(c.get('principal'), c.req.valid('query')), 200))
  app.openapi(getCall, async (c) => c.json(await calls.get(c.get('principal'), c.req.valid('param').call_id), 200))
  return app
}
