import { procedure, router } from '../../transport/trpc'

export const overviewRouter = router({
  get: procedure.query(({ ctx }) => ctx.service.overview.get(ctx.principal)),
})
