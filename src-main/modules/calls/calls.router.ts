import { callListQuerySchema } from '../../../src-shared/schemas/call'
import { procedure, router } from '../../kit/trpc'
import type { CallsService } from './calls.service'

export const callsRouter = (calls: CallsService) =>
  router({
    /** The REST query, parsed the same way: the console's Calls page. */
    list: procedure.input(callListQuerySchema).query(({ ctx, input }) => calls.list(ctx.principal, input)),
  })
