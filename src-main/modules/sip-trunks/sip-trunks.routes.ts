import { createRoute } from '@hono/zod-openapi'
import { sipTrunkListSchema } from '../../../src-shared/schemas/sip-trunk'
import { requireBearer } from '../../transport/http/auth'
import type { HttpApp } from '../../transport/http/app'
import { standardResponses } from '../../transport/http/responses'
import type { Service } from '../../service'

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

export function registerSipTrunkRoutes(app: HttpApp, service: Service): void {
  app.use('/agents/sip/list-trunks', requireBearer(service.tokens))
  app.openapi(listTrunks, async (c) => c.json(await service.sipTrunks.list(c.get('principal')), 200))
}
