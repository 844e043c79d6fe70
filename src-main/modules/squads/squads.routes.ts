import { createRoute } from '@hono/zod-openapi'
import { idParam } from '../../../src-shared/schemas/params'
import { squadAnalyticsQuerySchema, squadAnalyticsSchema } from '../../../src-shared/schemas/squad-analytics'
import { z } from '../../../src-shared/schemas/zod'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import { pulledHeaders } from '../../kit/pulled'
import type { SquadsService } from './squads.service'

const getSquadAnalytics = createRoute({
  method: 'get',
  path: '/squads/{squad_id}/analytics',
  operationId: 'get_squad_analytics',
  tags: ['Squads'],
  summary: 'Get squad analytics',
  description:
    "Transfer statistics, member utilization, routing strategy performance and session distribution of a squad over a period (default: the last 30 days). Sessions count by created_at, transfers by requested_at. A tenant-scoped token sees only its tenant's squads. For a squad known only from a pull, the analytics as the pull fetched them (headers `Callscope-Pulled-From`, `Callscope-Pulled-At`, `Callscope-Pulled-Period`): without dates, the source's own date-less answer, its default period chosen by its clock at `Callscope-Defaults-At`; with dates, the answer for the pull's range, whatever period is asked.",
  security: [{ HTTPBearer: [] }],
  request: { params: z.object({ squad_id: idParam('Squad id') }), query: squadAnalyticsQuerySchema },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: squadAnalyticsSchema } } },
    ...standardResponses({ notFound: true }),
  },
})

/** `GET /squads/{squad_id}/analytics`. */
export function squadRoutes(squads: SquadsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/squads/:squad_id/analytics', requireBearer(authenticate))
  app.openapi(getSquadAnalytics, async (c) => {
    const { squad_id } = c.req.valid('param')
    const answer = await squads.answer(c.get('principal'), squad_id, c.req.valid('query'))
    if (answer.kind === 'computed') return c.json(answer.analytics, 200)
    // A squad only a pull knows: its analytics as fetched, saying where from, for which period and,
    // for a date-less request, when the source's clock chose that period (docs/api.md, "A mirror and the clock").
    const { pulled } = answer
    const headers: Record<string, string> = pulledHeaders(pulled)
    if (pulled.periodStart !== null && pulled.periodEnd !== null) headers['Callscope-Pulled-Period'] = `${pulled.periodStart}/${pulled.periodEnd}`
    if (pulled.defaultsAt !== null) headers['Callscope-Defaults-At'] = pulled.defaultsAt
    return c.body(answer.json, 200, headers) as never
  })
  return app
}
