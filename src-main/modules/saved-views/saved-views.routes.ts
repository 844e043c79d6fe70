import { createRoute } from '@hono/zod-openapi'
import {
  savedViewIdParamsSchema,
  savedViewInputSchema,
  savedViewListSchema,
  savedViewPatchSchema,
  savedViewSchema,
} from '../../../src-shared/schemas/saved-view'
import { type Authenticate, requireBearer } from '../../kit/http/auth'
import { jsonBody } from '../../kit/http/json-body'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import type { SavedViewsService } from './saved-views.service'

const TAG = 'Saved views (Callscope extension)'
const NOT_THE_SPEC = "Not one of the service interface's operations: the log explorer's saved views (docs/api.md, \"Saved views\")."
const json = <T>(schema: T) => ({ 'application/json': { schema } })
const body = <T>(schema: T) => ({ required: true, content: json(schema) })

const listViews = createRoute({
  method: 'get',
  path: '/views',
  operationId: 'list_saved_views',
  tags: [TAG],
  summary: 'List saved views',
  description: `${NOT_THE_SPEC} Every view of the store, by name ignoring case. Admin and viewer tokens; a tenant token is refused (403): views are store-wide and may name any tenant.`,
  security: [{ HTTPBearer: [] }],
  responses: { 200: { description: 'Successful Response', content: json(savedViewListSchema) }, ...standardResponses({ forbidden: true }) },
})

const createView = createRoute({
  method: 'post',
  path: '/views',
  operationId: 'create_saved_view',
  tags: [TAG],
  summary: 'Save a view',
  description: `${NOT_THE_SPEC} A name (unique in the store, ignoring case), an optional description and the explorer's state. Admin only. A name another view has is a 409.`,
  security: [{ HTTPBearer: [] }],
  request: { body: body(savedViewInputSchema) },
  responses: {
    201: { description: 'Created; `Location` is the view', content: json(savedViewSchema) },
    ...standardResponses({ forbidden: true, conflict: true }),
  },
})

const getView = createRoute({
  method: 'get',
  path: '/views/{id}',
  operationId: 'get_saved_view',
  tags: [TAG],
  summary: 'Get a saved view',
  description: `${NOT_THE_SPEC} Admin and viewer tokens.`,
  security: [{ HTTPBearer: [] }],
  request: { params: savedViewIdParamsSchema },
  responses: { 200: { description: 'Successful Response', content: json(savedViewSchema) }, ...standardResponses({ forbidden: true, notFound: true }) },
})

const replaceView = createRoute({
  method: 'put',
  path: '/views/{id}',
  operationId: 'replace_saved_view',
  tags: [TAG],
  summary: 'Replace a saved view',
  description: `${NOT_THE_SPEC} Name, description and state replaced (a description left out becomes none). Admin only.`,
  security: [{ HTTPBearer: [] }],
  request: { params: savedViewIdParamsSchema, body: body(savedViewInputSchema) },
  responses: { 200: { description: 'Successful Response', content: json(savedViewSchema) }, ...standardResponses({ forbidden: true, notFound: true, conflict: true }) },
})

const patchView = createRoute({
  method: 'patch',
  path: '/views/{id}',
  operationId: 'update_saved_view',
  tags: [TAG],
  summary: 'Update a saved view',
  description: `${NOT_THE_SPEC} Changes the fields given: a rename, a new description, the state of now. Admin only.`,
  security: [{ HTTPBearer: [] }],
  request: { params: savedViewIdParamsSchema, body: body(savedViewPatchSchema) },
  responses: { 200: { description: 'Successful Response', content: json(savedViewSchema) }, ...standardResponses({ forbidden: true, notFound: true, conflict: true }) },
})

const deleteView = createRoute({
  method: 'delete',
  path: '/views/{id}',
  operationId: 'delete_saved_view',
  tags: [TAG],
  summary: 'Delete a saved view',
  description: `${NOT_THE_SPEC} Admin only.`,
  security: [{ HTTPBearer: [] }],
  request: { params: savedViewIdParamsSchema },
  responses: { 204: { description: 'Deleted' }, ...standardResponses({ forbidden: true, notFound: true }) },
})

/** `/views` and `/views/{id}`: the explorer's saved views over REST. */
export function savedViewRoutes(views: SavedViewsService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  app.use('/views', requireBearer(authenticate))
  app.use('/views/:id', requireBearer(authenticate))
  // The body guards only for the methods that take one, so another method still gets its 405.
  for (const guard of jsonBody()) {
    app.on('POST', '/views', guard)
    app.on(['PUT', 'PATCH'], '/views/:id', guard)
  }
  app.openapi(listViews, async (c) => c.json({ views: await views.list(c.get('principal')) }, 200))
  app.openapi(createView, async (c) => {
    const view = await views.create(c.get('principal'), c.req.valid('json'))
    return c.json(view, 201, { Location: `/views/${view.id}` })
  })
  app.openapi(getView, async (c) => c.json(await views.get(c.get('principal'), c.req.valid('param').id), 200))
  app.openapi(replaceView, async (c) => c.json(await views.replace(c.get('principal'), c.req.valid('param').id, c.req.valid('json')), 200))
  app.openapi(patchView, async (c) => c.json(await views.update(c.get('principal'), c.req.valid('param').id, c.req.valid('json')), 200))
  app.openapi(deleteView, async (c) => {
    await views.remove(c.get('principal'), c.req.valid('param').id)
    return c.body(null, 204)
  })
  return app
}
