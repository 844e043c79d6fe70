import { callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { procedure, router } from '../../transport/trpc'

export const callLogsRouter = router({
  /** Takes the REST query object as it is: the same parsing, defaults and date rules. */
  list: procedure.input(callLogQuerySchema).query(({ ctx, input }) => ctx.service.callLogs.list(ctx.principal, input)),
})
