import { createRoute } from '@hono/zod-openapi'
import { z } from '../../../src-shared/schemas/zod'
import { tenantSchema } from '../../../src-shared/schemas/tenant'
import { requireBearer } from '../../transport/http/auth'
import { standardResponses } from '../../transport/http/responses'
import type { HttpApp } from '../../transport/http/app'
import type { Service } from '../../service'

const getTenant = createRoute({
  method: 'get',
  path: '/tenants/{tenant_id}',
  operationId: 'get_tenant',
  tags: ['Tenants'],
  summary: 'Get tenant',
  description: "A tenant's profile, configuration, compliance settings and usage.",
  security: [{ HTTPBearer: [] }],
  request: { params: z.object({ tenant_id: z.uuid().openapi({ param: { description: 'Tenant id' } }) }) },
  responses: {
    200: { description: 'Successful Response', content: { 'application/json': { schema: tenantSchema } } },
    ...standardResponses({ notFound: true }),
  },
})

export function registerTenantRoutes(app: HttpApp, service: Service): void {
  app.use('/tenants/*', requireBearer(service.tokens))
  app.openapi(getTenant, async (c) => {
    const tenant = await service.tenants.get(c.get('principal'), c.req.valid('param').tenant_id)
    return c.json(tenant, 200)
  })
}
