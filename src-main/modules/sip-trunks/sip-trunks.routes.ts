import { createRoute } from '@hono/zod-openapi'
import { sipTrunkListSchema } from '../../../src-shared/schemas/sip-trunk'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import type { SipTrunksService } from './sip-trunks.service'

// No parameters, so nothing can fail validation: 401 is the only error documented.
const { 401: unauthorized } = standardResponses()

const listTrunks = createRoute({
  method: 'get',
  path: '/agents/sip/list-trunks',
  operationId: 'list_sip_trunks',
  tags: ['SIP'],
  summary: 'List SIP trunks',
  description:
    'Inbound SIP trunks (LiveKit SIPInboundTrunkInfo): id, name, numbers, allowed addresses and numbers, ' +
    'authentication status (never the password). Live from LiveKit when LIVEKIT_URL, LIVEKIT_API_KEY and ' +
    'LIVEKIT_API_SECRET are set, else from the store; `source` says which, and when LiveKit cannot be used ' +
    'the stored copy is served with `source: "store_fallback"` and the reason. A tenant-scoped token sees ' +
    "only its tenant's trunks.",
  security: [{ HTTPBearer: [] }],
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: sipTrunkListSchema } } },
    401: unauthorized,
  },
})

/** `GET /agents/sip/list-trunks`. */
export function sipTrunkRoutes(sipTrunks: SipTrunksService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/agents/sip/list-trunks', requireBearer(authenticate))
  app.openapi(listTrunks, async (c) => c.json(await sipTrunks.list(c.get('principal')), 200))
  return app
}
