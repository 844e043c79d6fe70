import { procedure, router } from '../../transport/trpc'

export const sipTrunksRouter = router({
  /** The same listing as `GET /agents/sip/list-trunks`. */
  list: procedure.query(({ ctx }) => ctx.service.sipTrunks.list(ctx.principal)),
})
