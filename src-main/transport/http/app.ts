import { OpenAPIHono } from '@hono/zod-openapi'
import { HTTPException } from 'hono/http-exception'
import { registerCallLogExportRoutes } from '../../modules/call-logs/call-logs.export'
import { registerCallLogRoutes } from '../../modules/call-logs/call-logs.routes'
import { registerImportRoutes } from '../../modules/imports/imports.routes'
import { registerProviderRoutes } from '../../modules/providers/providers.routes'
import { registerSipTrunkRoutes } from '../../modules/sip-trunks/sip-trunks.routes'
import { registerSessionRoutes } from '../../modules/sessions/sessions.routes'
import { registerSquadRoutes } from '../../modules/squads/squads.routes'
import { registerTenantRoutes } from '../../modules/tenants/tenants.routes'
import { NotFoundError } from '../../modules/errors'
import type { Service } from '../../service'
import type { RuntimeInfo } from '../trpc'
import type { AuthEnv } from './auth'
import { mountConsole } from './console'
import type { HostGuard } from './host-guard'
import { allowedMethods } from './method-not-allowed'
import { registerOpenApi } from './openapi'
import { registerTrpc } from './trpc-endpoint'
import { toValidationErrors, type Location } from './validation-errors'

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

export type HttpApp = OpenAPIHono<AuthEnv>

const TARGET_LOCATION: Record<string, Location> = {
  param: 'path',
  query: 'query',
  json: 'body',
  header: 'header',
}

/**
 * The REST interface as a Hono app: routes, validation in FastAPI's shape, errors. Transport
 * concerns of a real socket (bind address, Host checks, static UI) live in the listener.
 */
export function createHttpApp({ service, version, hostGuard, uiRoot, runtime }: HttpAppOptions): HttpApp {
  const app: HttpApp = new OpenAPIHono<AuthEnv>({
    defaultHook: (result, c) => {
      if (result.success) return
      const location = TARGET_LOCATION[result.target] ?? 'body'
      // @hono/zod-validator passes the raw input as `data` on failure too; its types omit it.
      const input = (result as { data?: unknown }).data
      const detail = toValidationErrors(location, result.error.issues, input)
      return c.json({ detail }, 422)
    },
  })

  app.onError((error, c) => {
    if (error instanceof NotFoundError) return c.json({ detail: error.message }, 404)
    if (error instanceof HTTPException) {
      const response = error.getResponse()
      return c.json({ detail: error.message || response.statusText }, response.status as 400)
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
      if (!hostGuard.allows(c.req.header('host'))) {
        return c.json({ detail: 'Misdirected Request: the Host header does not name this server' }, 421)
      }
      await next()
    })
  }

  // Liveness for scripts and supervisors: no token, nothing private.
  app.get('/healthz', (c) => c.json({ status: 'ok', version }))

  registerTenantRoutes(app, service)
  registerSessionRoutes(app, service)
  registerCallLogRoutes(app, service)
  registerCallLogExportRoutes(app, service)
  registerImportRoutes(app, service)
  registerSquadRoutes(app, service)
  registerProviderRoutes(app, service)
  registerSipTrunkRoutes(app, service)
  registerTrpc(app, service, runtime ?? { mode: 'headless', listenerUrl: null })
  registerOpenApi(app)
  mountConsole(app, uiRoot ?? null)

  return app
}
