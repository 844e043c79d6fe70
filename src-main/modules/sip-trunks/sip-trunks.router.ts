import { procedure, router } from '../../kit/trpc'
import type { SipTrunksService } from './sip-trunks.service'

export const sipTrunksRouter = (sipTrunks: SipTrunksService) =>
  router({
    /** The same listing as `GET /agents/sip/list-trunks`. */
    list: procedure.query(({ ctx }) => sipTrunks.list(ctx.principal)),
  })
