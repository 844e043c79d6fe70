import { HTTPException } from 'hono/http-exception'
import { asStoreFault, errorStatus } from '../kit/errors'
import { createModuleApp, type ModuleApp } from '../kit/http/module-app'
import { sourceParam } from '../kit/http/source-param'
import type { RuntimeInfo } from '../kit/runtime'
import { callLogRoutes } from '../modules/call-logs/call-logs.routes'
import { callLogStreamRoutes } from '../modules/call-logs/call-logs.stream.routes'
import { callLogCountByRoutes } from '../modules/call-logs/call-logs.count-by.routes'
import { importRoutes } from '../modules/imports/imports.routes'
import { providerRoutes } from '../modules/providers/providers.routes'
import { sessionRoutes } from '../modules/sessions/sessions.routes'
import { callRoutes } from '../modules/calls/calls.routes'
import { savedViewRoutes } from '../modules/saved-views/saved-views.routes'
import { sipTrunkRoutes } from '../modules/sip-trunks/sip-trunks.routes'
import { squadRoutes } from '../modules/squads/squads.routes'
import { tenantRoutes } from '../modules/tenants/tenants.routes'
import { webhookRoutes } from '../modules/webhooks/webhooks.routes'
import type { Service } from '../service'
import { createAppRouter } from './app-router'
import { mountConsole } from './console'
import type { HostGuard } from './host-guard'
import { allowedMethods } from './method-not-allowed'
import { mountOpenApi } from './openapi'
import { mountTrpc } from './trpc-endpoint'

export interface HttpAppOptions {
  service: Service
  version: string
  /** Rejects requests whose Host header does not name this listener (421). */
  hostGuard?: HostGuard
  /** Directory of the built console (out/renderer), served under /console/. */
  uiRoot?: string | null
  /** Read by the console's settings page; the entry point fills in listenerUrl once it listens. */
  runtime?: RuntimeInfo
}

export type HttpApp = ModuleApp

const INBOX_PREFIX = '/webhooks/inbox/'

/**
 * The REST interface as a Hono app: the modules' sub-apps mounted with `app.route()`, service
 * errors answered through the one table (kit/errors.ts), 404 and 405 in FastAPI's shape.
 * Transport concerns of a real socket (bind address) live in the listener.
 */
export function createHttpApp({ service, version, hostGuard, uiRoot, runtime }: HttpAppOptions): HttpApp {
  const app: HttpApp = createModuleApp()
  const authenticate = service.tokens.authenticate

  app.onError((thrown, c) => {
    const error = asStoreFault(thrown) as Error
    const status = errorStatus(error)
    if (status) return c.json({ detail: error.message }, status.http)
    if (error instanceof HTTPException) {
      const response = error.getResponse()
      return c.json({ detail: error.message || response.statusText }, response.status as 400)
    }
    // The client closed the connection before its body was in (Node's 'aborted', or the adaptor
    // failing to wrap an aborted body): no bug, and no one left to answer.
    if (c.req.raw.signal.aborted || (error as NodeJS.ErrnoException).code === 'ECONNRESET') {
      return c.json({ detail: 'Bad Request: the client closed the connection before its request was read' }, 400)
    }
    console.error('Unhandled error on %s %s:', c.req.method, c.req.path, error)
    return c.json({ detail: 'Internal Server Error' }, 500)
  })
  app.notFound((c) => {
    const allow = allowedMethods(app, c.req.path)
    if (allow.length > 0) return c.json({ detail: 'Method Not Allowed' }, 405, { Allow: allow.join(', ') })
    return c.json({ detail: 'Not Found' }, 404)
  })

  if (hostGuard) {
    app.use(async (c, next) => {
      // The inbox is exempt: a backend reaches it through a tunnel under the tunnel's name, and it
      // answers only to a valid signature, so a rebinding page gains nothing there (docs/api.md, "Inbox").
      if (!hostGuard.allows(c.req.header('host')) && !c.req.path.startsWith(INBOX_PREFIX)) {
        return c.json({ detail: 'Misdirected Request: the Host header does not name this server' }, 421)
      }
      await next()
    })
  }

  // `?source=` on every operation: resolved before the routes, applied by their bearer check.
  app.use(sourceParam(service.sources.resolve))

  // Liveness for scripts and supervisors: no token, nothing private.
  app.get('/healthz', (c) => c.json({ status: 'ok', version }))

  // Mounted in the order /openapi.json lists them.
  app.route('/', tenantRoutes(service.tenants, authenticate))
  app.route('/', sessionRoutes(service.sessions, authenticate))
  app.route('/', callLogRoutes(service.callLogs, authenticate))
  app.route('/', importRoutes(service.imports, authenticate))
  app.route('/', squadRoutes(service.squads, authenticate))
  app.route('/', providerRoutes(service.providers, authenticate))
  app.route('/', sipTrunkRoutes(service.sipTrunks, authenticate))
  // Callscope's extensions, after the spec's operations.
  app.route('/', callRoutes(service.calls, authenticate))
  app.route('/', callLogStreamRoutes(service.callLogs, authenticate))
  app.route('/', callLogCountByRoutes(service.callLogs, authenticate))
  app.route('/', webhookRoutes(service.webhooks, authenticate))
  app.route('/', savedViewRoutes(service.savedViews, authenticate))
  mountTrpc(app, createAppRouter(service), authenticate, runtime ?? { mode: 'headless', listenerUrl: null })
  mountOpenApi(app)
  mountConsole(app, uiRoot ?? null)

  return app
}
