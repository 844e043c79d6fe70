import { squadAnalyticsInputSchema } from '../../../src-shared/schemas/squad-analytics'
import { procedure, router } from '../../transport/trpc'

export const squadsRouter = router({
  /** Squads the caller may see, with tenant and member count (a tenant token: its own only). */
  list: procedure.query(({ ctx }) => ctx.service.squads.list(ctx.principal)),
  /** The REST query plus the squad id: the same parsing, defaults and date rules. */
  analytics: procedure
    .input(squadAnalyticsInputSchema)
    .query(({ ctx, input: { squadId, ...query } }) => ctx.service.squads.analytics(ctx.principal, squadId, query)),
})
