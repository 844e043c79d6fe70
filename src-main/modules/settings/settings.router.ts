import { procedure, router } from '../../transport/trpc'
import { settingsInfo } from './settings.service'

const NOT_LISTENING = { mode: 'headless', listenerUrl: null } as const

export const settingsRouter = router({
  /** Database location, size, schema version and row counts, and the HTTP listener's address. */
  info: procedure.query(({ ctx }) => settingsInfo(ctx.principal, ctx.service.info, ctx.runtime ?? NOT_LISTENING)),
})
