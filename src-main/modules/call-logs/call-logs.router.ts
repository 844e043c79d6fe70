import { callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { callLogContextInputSchema, callLogFilterSchema, callLogSearchInputSchema } from '../../../src-shared/schemas/call-log-search'
import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../transport/trpc'

const filterInput = z.object({ filter: callLogFilterSchema })

export const callLogsRouter = router({
  /** Takes the REST query object as it is: the same parsing, defaults and date rules. */
  list: procedure.input(callLogQuerySchema).query(({ ctx, input }) => ctx.service.callLogs.list(ctx.principal, input)),
  /** The console's table: richer filter, full-text search, keyset pages. */
  search: procedure
    .input(callLogSearchInputSchema)
    .query(({ ctx, input }) => ctx.service.callLogs.search(ctx.principal, input.filter, input.cursor, input.limit)),
  facets: procedure.input(filterInput).query(({ ctx, input, signal }) => ctx.service.callLogs.facets(ctx.principal, input.filter, signal)),
  histogram: procedure.input(filterInput).query(({ ctx, input, signal }) => ctx.service.callLogs.histogram(ctx.principal, input.filter, signal)),
  context: procedure
    .input(callLogContextInputSchema)
    .query(({ ctx, input }) => ctx.service.callLogs.context(ctx.principal, input.id, input.before, input.after)),
})
