import { laxUuid } from '../../../src-shared/schemas/params'
import { z } from '../../../src-shared/schemas/zod'
import { procedure, router } from '../../kit/trpc'
import type { TenantsService } from './tenants.service'

const byId = z.object({ tenantId: laxUuid() })

export const tenantsRouter = (tenants: TenantsService) =>
  router({
    list: procedure
      .input(z.object({ search: z.string().max(200).optional() }).optional())
      .query(({ ctx, input }) => tenants.list(ctx.principal, input?.search)),
    usage: procedure.input(byId).query(({ ctx, input }) => tenants.usage(ctx.principal, input.tenantId)),
    get: procedure.input(byId).query(({ ctx, input }) => tenants.get(ctx.principal, input.tenantId)),
    origin: procedure.input(byId).query(({ ctx, input }) => tenants.origin(ctx.principal, input.tenantId)),
  })
