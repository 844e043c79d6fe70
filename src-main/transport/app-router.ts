import { agentsRouter } from '../modules/agents/agents.router'
import { conversationsRouter } from '../modules/conversations/conversations.router'
import { overviewRouter } from '../modules/overview/overview.router'
import { callLogsRouter } from '../modules/call-logs/call-logs.router'
import { importsRouter } from '../modules/imports/imports.router'
import { pullsRouter } from '../modules/pull/pulls.router'
import { providersRouter } from '../modules/providers/providers.router'
import { settingsRouter } from '../modules/settings/settings.router'
import { sipTrunksRouter } from '../modules/sip-trunks/sip-trunks.router'
import { sessionsRouter } from '../modules/sessions/sessions.router'
import { squadsRouter } from '../modules/squads/squads.router'
import { tenantsRouter } from '../modules/tenants/tenants.router'
import { tokensRouter } from '../modules/tokens/tokens.router'
import { router } from './trpc'

/** The console's API: one sub-router per domain, each over the same services as the REST routes. */
export const appRouter = router({
  tenants: tenantsRouter,
  sessions: sessionsRouter,
  agents: agentsRouter,
  conversations: conversationsRouter,
  overview: overviewRouter,
  callLogs: callLogsRouter,
  imports: importsRouter,
  pulls: pullsRouter,
  squads: squadsRouter,
  providers: providersRouter,
  sipTrunks: sipTrunksRouter,
  tokens: tokensRouter,
  settings: settingsRouter,
})

export type AppRouter = typeof appRouter
