import { createRoute } from '@hono/zod-openapi'
import { laxUuid } from '../../../src-shared/schemas/params'
import { z } from '../../../src-shared/schemas/zod'
import { tenantSchema } from '../../../src-shared/schemas/tenant'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import type { TenantsService } from './tenants.service'

const getTenant = createRoute({
  method: 'get',
  path: '/tenants/{tenant_id}',
  operationId: 'get_tenant',
  tags: ['Tenants'],
  summary: 'Get tenant',
  description: "A tenant's profile, configuration, compliance settings and usage.",
  security: [{ HTTPBearer: [] }],
  request: { params: z.object({ tenant_id: laxUuid().openapi({ param: { description: 'Tenant id' } }) }) },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: tenantSchema } } },
    ...standardResponses({ notFound: true }),
  },
})

/** `GET /tenants/{tenant_id}`. */
export function tenantRoutes(tenants: TenantsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/tenants/*', requireBearer(authenticate))
  app.openapi(getTenant, async (c) => c.json(await tenants.get(c.get('principal'), c.req.valid('param').tenant_id), 200))
  return app
}
