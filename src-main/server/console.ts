import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'

/**
 * Serves the built console under /console/ (its own prefix, so console URLs never shadow REST
 * paths such as /tenants/{id}); `/` leads there.
 */
export function mountConsole(app: Hono<any>, uiRoot: string | null): void {
  const built = uiRoot !== null && existsSync(join(uiRoot, 'index.html'))
  app.get('/', (c) => c.redirect('/console/'))
  if (!built) {
    app.get('/console/*', (c) =>
      c.html(
        '<!doctype html><title>Callscope</title><p>The console has not been built. Run <code>npm run build</code> and restart, or use <code>npm run serve</code>, which builds it when needed.</p>',
        503,
      ),
    )
    return
  }
  app.use(
    '/console/*',
    serveStatic({ root: uiRoot, rewriteRequestPath: (path) => path.replace(/^\/console/, '') }),
  )
  // Unknown console paths get the app shell; the console routes on the client.
  app.get('/console/*', serveStatic({ root: uiRoot, path: 'index.html' }))
}
