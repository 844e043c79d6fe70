import { createRoute } from '@hono/zod-openapi'
import { sessionListQuerySchema, sessionListSchema } from '../../../src-shared/schemas/session'
import { idParam } from '../../../src-shared/schemas/params'
import { z } from '../../../src-shared/schemas/zod'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import type { SessionsService } from './sessions.service'

const params = z.object({ agent_id: idParam('Agent id') })

/** The sessions listing and its alias share one definition; only path and operation id differ. */
const listRoute = (path: string, operationId: string, summary: string) =>
  createRoute({
    method: 'get',
    path,
    operationId,
    tags: ['Agents'],
    summary,
    description:
      "An agent's chat sessions (conversations), newest first, one page at a time. `/sessions` and `/conversations` are aliases.",
    security: [{ HTTPBearer: [] }],
    request: { params, query: sessionListQuerySchema },
    responses: {
      200: { description: 'Successful Response', content: { 'application/json': { schema: sessionListSchema } } },
      ...standardResponses({ notFound: true }),
    },
  })

/** `GET /agents/{agent_id}/sessions` and its alias `/conversations`. */
export function sessionRoutes(sessions: SessionsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/agents/:agent_id/sessions', requireBearer(authenticate))
  app.use('/agents/:agent_id/conversations', requireBearer(authenticate))
  for (const route of [
    listRoute('/agents/{agent_id}/sessions', 'list_agent_sessions', 'List agent sessions'),
    listRoute('/agents/{agent_id}/conversations', 'list_agent_conversations', 'List agent conversations (alias of sessions)'),
  ]) {
    app.openapi(route, async (c) => {
      const { agent_id } = c.req.valid('param')
      const body = await sessions.listForAgentJson(c.get('principal'), agent_id, c.req.valid('query'))
      return c.body(body, 200, { 'Content-Type': 'application/json' }) as never
    })
  }
  return app
}
