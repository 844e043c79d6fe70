import { createRequire } from 'node:module'
import { serveStatic } from '@hono/node-server/serve-static'
import type { ModuleApp } from '../kit/http/module-app'
import { registerWebhookEvents } from '../modules/webhooks/webhooks.openapi'
import { withSourceParameter } from './openapi-source'

export const OPENAPI_INFO = {
  title: 'Voice Agent Backend (Callscope)',
  version: '1.0.0',
  description:
    'The read API of a multi-tenant backend for multilingual, tool-using voice agents, served locally by Callscope. ' +
    'Every operation takes `Authorization: Bearer <token>`. Decisions where the interface is silent: docs/api.md.',
} as const

/**
 * `GET /openapi.json`, generated from the same zod route definitions that validate requests, and
 * `GET /docs`, Swagger UI (as FastAPI serves it) from swagger-ui-dist's local files: no CDN.
 */
export function mountOpenApi(app: ModuleApp): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'HTTPBearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API token: `callscope token create`, the first start, or CALLSCOPE_TOKEN.',
  })
  registerWebhookEvents(app.openAPIRegistry)
  // Built on the first request, once every route is registered; the document never changes after.
  let document: ReturnType<ModuleApp['getOpenAPI31Document']> | undefined
  app.get('/openapi.json', (c) =>
    c.json((document ??= withSourceParameter(app.getOpenAPI31Document({ openapi: '3.1.0', info: OPENAPI_INFO, tags: [] })))),
  )

  // absolute-path.js only: the package's main module loads the whole Swagger UI bundle into Node.
  const swaggerRoot: string = createRequire(import.meta.url)('swagger-ui-dist/absolute-path.js')()
  app.get('/docs', (c) => c.html(DOCS_PAGE))
  app.get('/docs/init.js', (c) => c.body(DOCS_INIT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }))
  app.use(
    '/docs/assets/*',
    serveStatic({ root: swaggerRoot, rewriteRequestPath: (path) => path.replace(/^\/docs\/assets/, '') }),
  )
}

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${OPENAPI_INFO.title} - Swagger UI</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`

const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});`

