import { callListInputSchema } from '../../../src-shared/schemas/call'
import { callGetInputSchema } from '../../../src-shared/schemas/call-detail'
import { procedure, router } from '../../kit/trpc'
import type { CallsService } from './calls.service'

export const callsRouter = (calls: CallsService) =>
  router({
    /** The REST query, parsed the same way, with the page's cursor beside it: the console's Calls page. */
    list: procedure.input(callListInputSchema).query(({ ctx, input }) => calls.list(ctx.principal, { ...input.query, cursor: input.cursor ?? input.query.cursor })),
    /** One call's page, as `GET /calls/{call_id}` answers it. */
    get: procedure.input(callGetInputSchema).query(({ ctx, input }) => calls.get(ctx.principal, input.callId)),
  })
