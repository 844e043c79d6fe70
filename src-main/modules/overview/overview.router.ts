import { procedure, router } from '../../kit/trpc'
import type { OverviewService } from './overview.service'

export const overviewRouter = (overview: OverviewService) =>
  router({
    get: procedure.query(({ ctx }) => overview.get(ctx.principal)),
  })
