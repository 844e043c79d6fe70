import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../transport/trpc'

export const tenantsRouter = router({
  list: procedure
    .input(z.object({ search: z.string().max(200).optional() }).optional())
    .query(({ ctx, input }) => ctx.service.tenants.list(ctx.principal, input?.search)),
  usage: procedure.input(z.object({ tenantId: z.uuid() })).query(({ ctx, input }) => ctx.service.tenants.usage(ctx.principal, input.tenantId)),
  get: procedure.input(z.object({ tenantId: z.uuid() })).query(({ ctx, input }) => ctx.service.tenants.get(ctx.principal, input.tenantId)),
  origin: procedure.input(z.object({ tenantId: z.uuid() })).query(({ ctx, input }) => ctx.service.tenants.origin(ctx.principal, input.tenantId)),
})
