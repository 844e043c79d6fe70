import { idParam, laxUuid } from '../../../src-shared/schemas/params'
import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../kit/trpc'
import type { AgentsService } from './agents.service'

export const agentsRouter = (agents: AgentsService) =>
  router({
    list: procedure
      .input(z.object({ tenantId: laxUuid().optional(), search: z.string().max(200).optional() }).optional())
      .query(({ ctx, input }) => agents.list(ctx.principal, input ?? {})),
    get: procedure.input(z.object({ agentId: idParam('Agent id') })).query(({ ctx, input }) => agents.get(ctx.principal, input.agentId)),
  })
