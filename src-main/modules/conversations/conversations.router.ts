import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../kit/trpc'
import type { ConversationsService } from './conversations.service'

export const conversationsRouter = (conversations: ConversationsService) =>
  router({
    get: procedure
      .input(z.object({ conversationId: z.string().min(1).max(100) }))
      .query(({ ctx, input }) => conversations.get(ctx.principal, input.conversationId)),
  })
