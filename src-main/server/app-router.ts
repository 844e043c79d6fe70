import { agentsRouter } from '../modules/agents/agents.router'
import { callLogsRouter } from '../modules/call-logs/call-logs.router'
import { conversationsRouter } from '../modules/conversations/conversations.router'
import { importsRouter } from '../modules/imports/imports.router'
import { overviewRouter } from '../modules/overview/overview.router'
import { providersRouter } from '../modules/providers/providers.router'
import { pullsRouter } from '../modules/pull/pulls.router'
import { sessionsRouter } from '../modules/sessions/sessions.router'
import { settingsRouter } from '../modules/settings/settings.router'
import { callsRouter } from '../modules/calls/calls.router'
import { sipTrunksRouter } from '../modules/sip-trunks/sip-trunks.router'
import { squadsRouter } from '../modules/squads/squads.router'
import { tenantsRouter } from '../modules/tenants/tenants.router'
import { sourcesRouter } from '../modules/sources/sources.router'
import { tokensRouter } from '../modules/tokens/tokens.router'
import { webhooksRouter } from '../modules/webhooks/webhooks.router'
import { savedViewsRouter } from '../modules/saved-views/saved-views.router'
import { storeHealthRouter } from '../modules/store-health/store-health.router'
import { router } from '../kit/trpc'
import type { Service } from '../service'

/** The console's API: one sub-router per domain, each built over its own services, as the REST sub-apps are. */
export const createAppRouter = (service: Service) =>
  router({
    tenants: tenantsRouter(service.tenants),
    sessions: sessionsRouter(service.sessions),
    agents: agentsRouter(service.agents),
    conversations: conversationsRouter(service.conversations),
    overview: overviewRouter(service.overview),
    callLogs: callLogsRouter(service.callLogs),
    imports: importsRouter(service.imports),
    pulls: pullsRouter(service.pulls, service.syncs),
    squads: squadsRouter(service.squads),
    providers: providersRouter(service.providers),
    sipTrunks: sipTrunksRouter(service.sipTrunks),
    calls: callsRouter(service.calls),
    tokens: tokensRouter(service.tokens),
    sources: sourcesRouter(service.sources),
    settings: settingsRouter(service.database),
    webhooks: webhooksRouter(service.webhooks),
    savedViews: savedViewsRouter(service.savedViews),
    storeHealth: storeHealthRouter(service.storeHealth),
  })

/** The router's type: all the renderer knows of the main process (src-renderer/lib/trpc.ts). */
export type AppRouter = ReturnType<typeof createAppRouter>
