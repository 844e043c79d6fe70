import { callLogsRouter } from '../modules/call-logs/call-logs.router'
import { sessionsRouter } from '../modules/sessions/sessions.router'
import { tenantsRouter } from '../modules/tenants/tenants.router'
import { router } from './trpc'

/** The console's API: one sub-router per domain, each over the same services as the REST routes. */
export const appRouter = router({
  tenants: tenantsRouter,
  sessions: sessionsRouter,
  callLogs: callLogsRouter,
})

export type AppRouter = typeof appRouter
