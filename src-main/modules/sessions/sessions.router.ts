import { idParam } from '../../../src-shared/schemas/params'
import { sessionListQuerySchema } from '../../../src-shared/schemas/session'
import { procedure, router } from '../../kit/trpc'
import type { SessionsService } from './sessions.service'

export const sessionsRouter = (sessions: SessionsService) =>
  router({
    listForAgent: procedure
      .input(sessionListQuerySchema.extend({ agentId: idParam('Agent id') }))
      .query(({ ctx, input }) => sessions.listForAgent(ctx.principal, input.agentId, input)),
  })
