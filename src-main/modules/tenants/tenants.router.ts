import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../transport/trpc'

export const tenantsRouter = router({
  get: procedure.input(z.object({ tenantId: z.uuid() })).query(({ ctx, input }) => ctx.service.tenants.get(ctx.principal, input.tenantId)),
})
