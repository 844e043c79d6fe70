import { TOKEN_ROLES } from '../../../src-shared/constants'
import { z } from '../../../src-shared/schemas/zod'
import { adminProcedure, procedure, router } from '../../kit/trpc'
import type { TokenService } from './tokens.service'

export const tokensRouter = (tokens: TokenService) =>
  router({
    /** Who the console is signed in as; also how it checks a pasted token. */
    whoami: procedure.query(({ ctx }) => ({ role: ctx.principal.role, tenantId: ctx.principal.tenantId })),
    list: adminProcedure.query(() => tokens.list()),
    create: adminProcedure
      .input(
        z.object({
          name: z.string().trim().min(1).max(100),
          role: z.enum(TOKEN_ROLES),
          tenantId: z.uuid().nullish(),
          // The lifetime's words are checked by the service (src-shared/token-lifetime.ts): a refusal is BAD_REQUEST.
          expires: z.string().max(40).optional(),
        }),
      )
      .mutation(({ input }) => tokens.create(input)),
    revoke: adminProcedure.input(z.object({ id: z.uuid() })).mutation(({ input }) => tokens.revoke(input.id)),
  })
