import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../transport/trpc'

export const conversationsRouter = router({
  get: procedure
    .input(z.object({ conversationId: z.string().min(1).max(100) }))
    .query(({ ctx, input }) => ctx.service.conversations.get(ctx.principal, input.conversationId)),
})
