import { uuidParam } from '../../../src-shared/schemas/params'
import { sessionListQuerySchema } from '../../../src-shared/schemas/session'
import { procedure, router } from '../../transport/trpc'

export const sessionsRouter = router({
  listForAgent: procedure
    .input(sessionListQuerySchema.extend({ agentId: uuidParam('Agent id') }))
    .query(({ ctx, input }) => ctx.service.sessions.listForAgent(ctx.principal, input.agentId, input)),
})
