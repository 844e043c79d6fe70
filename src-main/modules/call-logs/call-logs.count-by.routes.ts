import { createRoute } from '@hono/zod-openapi'
import { callLogCountBySchema, callLogCountByQuerySchema, countByQueryFilter } from '../../../src-shared/schemas/call-log-count-by'
import type { ValidationError } from '../../../src-shared/schemas/errors'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import { CountByTooManyGroupsError } from './call-logs.count-by'
import type { CallLogsService } from './call-logs.service'
import { LogQueryTooSlowError } from './log-query.slow'

const countCallLogs = createRoute({
  method: 'get',
  path: '/logs/calls/count-by',
  operationId: 'count_call_logs_by',
  tags: ['Count by (Callscope extension)'],
  summary: 'Count call logs by a field over time',
  description:
    "Not one of the service interface's operations: the log explorer's count-by. The records matching the filter, grouped by `by` (level, type, tenant, agent or a details key) and by time bucket (the bucket width chosen from the range, at most 120 buckets): the top `top` groups by records with their totals and error counts (levels error and critical), the rest summed as one `other` group, records without the field as a `none` group. A tenant-scoped token counts only its tenant's records. A count that runs past the query budget (2 s) is a 422 of type `query_too_slow` naming the slow part.",
  security: [{ HTTPBearer: [] }],
  request: { query: callLogCountByQuerySchema },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: callLogCountBySchema } } },
    ...standardResponses(),
  },
})

/** A count the service refused, as a 422 in FastAPI's shape: the part to change is named in `loc`. */
function refusal(error: unknown, query: { by: string; query?: string }): ValidationError | null {
  if (error instanceof LogQueryTooSlowError) {
    // The key alone is slow (a details key over a wide range): point at `by`, else at the query.
    const onlyBy = error.parts.length === 1 && error.parts[0] === query.by
    return { type: 'query_too_slow', loc: ['query', onlyBy || !query.query ? 'by' : 'query'], msg: error.message, input: onlyBy || !query.query ? query.by : query.query, ctx: { parts: error.parts } }
  }
  if (error instanceof CountByTooManyGroupsError) return { type: 'value_error', loc: ['query', 'by'], msg: `Value error, ${error.message}`, input: query.by, ctx: { error: error.message } }
  return null
}

/** `GET /logs/calls/count-by`. */
export function callLogCountByRoutes(callLogs: CallLogsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/logs/calls/count-by', requireBearer(authenticate))
  app.openapi(countCallLogs, async (c) => {
    const query = c.req.valid('query')
    try {
      return c.json(await callLogs.countBy(c.get('principal'), countByQueryFilter(query), query.by, query.top), 200)
    } catch (error) {
      const detail = refusal(error, query)
      if (!detail) throw error
      return c.json({ detail: [detail] }, 422) as never
    }
  })
  return app
}
