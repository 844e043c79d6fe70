import { OpenAPIHono } from '@hono/zod-openapi'
import type { AuthEnv } from './auth'
import { toValidationErrors, type Location } from './validation-errors'

/** A module's REST routes: a Hono sub-app the assembly mounts with `app.route('/', …)`. */
export type ModuleApp = OpenAPIHono<AuthEnv>

const TARGET_LOCATION: Record<string, Location> = {
  param: 'path',
  query: 'query',
  json: 'body',
  header: 'header',
}

/**
 * A sub-app whose zod-validated routes answer a failed validation with 422 in FastAPI's shape
 * (the hook runs where a route is registered, so every sub-app needs it, the root app too).
 */
export function createModuleApp(): ModuleApp {
  return new OpenAPIHono<AuthEnv>({
    defaultHook: (result, c) => {
      if (result.success) return
      const location = TARGET_LOCATION[result.target] ?? 'body'
      // @hono/zod-validator passes the raw input as `data` on failure too; its types omit it.
      const input = (result as { data?: unknown }).data
      const detail = toValidationErrors(location, result.error.issues, input)
      return c.json({ detail }, 422)
    },
  })
}
