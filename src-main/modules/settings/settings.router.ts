import { listenerConfigSchema } from '../../../src-shared/schemas/listener'
import { adminProcedure, procedure, requireDesktop, router } from '../../kit/trpc'
import type { DatabaseService } from '../database/database.service'
import { settingsInfo } from './settings.service'

const NOT_LISTENING = { mode: 'headless', listenerUrl: null } as const

export const settingsRouter = (database: DatabaseService) =>
  router({
    /** Database location, size, schema version and row counts, and the HTTP listener's address. */
    info: procedure.query(({ ctx }) => settingsInfo(ctx.principal, database.info, ctx.runtime ?? NOT_LISTENING)),
    /** The desktop app's optional HTTP listener: its configuration, URL and last error. */
    listener: adminProcedure.query(({ ctx }) => requireDesktop(ctx).listener.status()),
    /** Turns the listener on or off, or moves it; persisted across restarts. */
    setListener: adminProcedure.input(listenerConfigSchema).mutation(({ ctx, input }) => requireDesktop(ctx).listener.configure(input)),
  })
