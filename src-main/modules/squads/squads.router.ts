import { squadAnalyticsInputSchema } from '../../../src-shared/schemas/squad-analytics'
import { procedure, router } from '../../kit/trpc'
import type { SquadsService } from './squads.service'

export const squadsRouter = (squads: SquadsService) =>
  router({
    /** Squads the caller may see, with tenant and member count (a tenant token: its own only). */
    list: procedure.query(({ ctx }) => squads.list(ctx.principal)),
    /** The REST query plus the squad id: the same parsing, defaults and date rules; `pulled` says when the squad's analytics came from a pull. */
    analytics: procedure
      .input(squadAnalyticsInputSchema)
      .query(({ ctx, input: { squadId, ...query } }) => squads.view(ctx.principal, squadId, query)),
  })
