import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../transport/trpc'

export const agentsRouter = router({
  list: procedure
    .input(z.object({ tenantId: z.uuid().optional(), search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => ctx.service.agents.list(ctx.principal, input ?? {})),
  get: procedure.input(z.object({ agentId: z.uuid() })).query(({ ctx, input }) => ctx.service.agents.get(ctx.principal, input.agentId)),
})
