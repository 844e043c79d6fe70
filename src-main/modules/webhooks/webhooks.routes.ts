import { createRoute } from '@hono/zod-openapi'
import { getConnInfo } from '@hono/node-server/conninfo'
import { bodyLimit } from 'hono/body-limit'
import { httpErrorSchema, httpValidationErrorSchema } from '../../../src-shared/schemas/errors'
import { webhookEventSchema, WEBHOOK_HEADERS } from '../../../src-shared/schemas/webhook-events'
import {
  deliveryDetailSchema,
  deliveryIdParamsSchema,
  deliveryListSchema,
  deliverySchema,
  inboxAcceptedSchema,
  inboxListSchema,
  listQuerySchema,
  replayBodySchema,
  secretBodySchema,
  secretShownOnceSchema,
  secretStatusSchema,
  tenantIdParamsSchema,
  testSendBodySchema,
  WEBHOOK_LIMITS,
} from '../../../src-shared/schemas/webhooks'
import { z } from '../../../src-shared/schemas/zod'
import { type Authenticate, requireAdmin, requireBearer } from '../../kit/http/auth'
import { jsonBody } from '../../kit/http/json-body'
import { createModuleApp, type ModuleApp } from '../../kit/http/module-app'
import { standardResponses } from '../../kit/http/responses'
import { toValidationErrors } from '../../kit/http/validation-errors'
import type { WebhooksService } from './webhooks.service'

const TAG = 'Webhooks (Callscope extension)'
const json = <T>(schema: T) => ({ 'application/json': { schema } })
const security = [{ HTTPBearer: [] }]

const getSecret = createRoute({
  method: 'get',
  path: '/tenants/{tenant_id}/webhook-secret',
  operationId: 'get_webhook_secret_status',
  tags: [TAG],
  summary: "Whether a tenant's webhook signing secret is set",
  description: 'Whether the tenant has a signing secret, with a hint to tell secrets apart. Never the secret itself.',
  security,
  request: { params: tenantIdParamsSchema },
  responses: { 200: { description: 'Successful Response', content: json(secretStatusSchema) }, ...standardResponses({ notFound: true }) },
})

const putSecret = createRoute({
  method: 'post',
  path: '/tenants/{tenant_id}/webhook-secret',
  operationId: 'set_webhook_secret',
  tags: [TAG],
  summary: 'Create, rotate or set the webhook signing secret',
  description:
    "Makes a new Standard Webhooks secret for the tenant (or sets `secret`, your backend's, so the inbox can verify what it signs) and answers it **this once**: it is stored sealed and never shown again. A previous secret stops signing and verifying at once. Admin only.",
  security,
  request: { params: tenantIdParamsSchema, body: { required: false, content: json(secretBodySchema) } },
  responses: { 200: { description: 'The secret, shown once', content: json(secretShownOnceSchema) }, ...standardResponses({ notFound: true, forbidden: true }) },
})

const testSend = createRoute({
  method: 'post',
  path: '/tenants/{tenant_id}/webhook-deliveries',
  operationId: 'send_test_webhook',
  tags: [TAG],
  summary: 'Send a test event',
  description:
    "Builds an event of the catalog (from the given call, else the tenant's newest stored call that fits, else an example), signs it with the tenant's secret and delivers it to `url` or the tenant's `webhook_url` in the background, retrying on the documented schedule. Answers 202 with the delivery at once; follow it with `GET /webhook-deliveries/{delivery_id}`. Loopback and private addresses only when allowed (docs/api.md). Admin only.",
  security,
  request: { params: tenantIdParamsSchema, body: { required: true, content: json(testSendBodySchema) } },
  responses: {
    202: { description: 'Accepted: the first attempt is under way', content: json(deliverySchema) },
    400: { description: 'No secret, no URL, or a call that cannot give this event', content: json(httpErrorSchema) },
    ...standardResponses({ notFound: true, forbidden: true }),
  },
})

const listDeliveries = createRoute({
  method: 'get',
  path: '/tenants/{tenant_id}/webhook-deliveries',
  operationId: 'list_webhook_deliveries',
  tags: [TAG],
  summary: "A tenant's webhook deliveries",
  description: 'The delivery log, newest first.',
  security,
  request: { params: tenantIdParamsSchema, query: listQuerySchema },
  responses: { 200: { description: 'Successful Response', content: json(deliveryListSchema) }, ...standardResponses({ notFound: true }) },
})

const getDelivery = createRoute({
  method: 'get',
  path: '/webhook-deliveries/{delivery_id}',
  operationId: 'get_webhook_delivery',
  tags: [TAG],
  summary: 'A delivery with every attempt',
  description: "The signed body and each attempt's request headers, the receiver's status, headers and body excerpt, the latency, and the error by kind.",
  security,
  request: { params: deliveryIdParamsSchema },
  responses: { 200: { description: 'Successful Response', content: json(deliveryDetailSchema) }, ...standardResponses({ notFound: true }) },
})

const replay = createRoute({
  method: 'post',
  path: '/webhook-deliveries/{delivery_id}/replay',
  operationId: 'replay_webhook_delivery',
  tags: [TAG],
  summary: 'Replay a delivery',
  description: 'Sends the same body again as a new delivery, signed afresh: under the same webhook-id (a redelivery, which receivers should deduplicate) or, with `new_id`, a new one. Admin only.',
  security,
  request: { params: deliveryIdParamsSchema, body: { required: false, content: json(replayBodySchema) } },
  responses: { 202: { description: 'Accepted', content: json(deliverySchema) }, ...standardResponses({ notFound: true, forbidden: true }) },
})

const listInbox = createRoute({
  method: 'get',
  path: '/tenants/{tenant_id}/webhook-inbox',
  operationId: 'list_webhook_inbox',
  tags: [TAG],
  summary: "What a tenant's inbox received",
  description: 'Requests to `POST /webhooks/inbox/{tenant_id}`, accepted and rejected (with the reason), newest first.',
  security,
  request: { params: tenantIdParamsSchema, query: listQuerySchema },
  responses: { 200: { description: 'Successful Response', content: json(inboxListSchema) }, ...standardResponses({ notFound: true }) },
})

const INBOX_PATH = '/webhooks/inbox/{tenant_id}'

/** The inbox's documentation; its handler reads the raw body itself (the signature is over the bytes). */
const inboxDoc = {
  method: 'post' as const,
  path: INBOX_PATH,
  operationId: 'receive_webhook',
  tags: [TAG],
  summary: 'Receive a signed event (the inbox)',
  // No bearer token: the signature is the credential (an empty list says "none", as OpenAPI defines it).
  security: [],
  description:
    "Point a backend's webhook at this address (through a tunnel to this machine) to see its events here. **No bearer token**: a backend has none; the Standard Webhooks signature under the tenant's secret is the credential. Checked in order: the three headers (422), a secret set for the tenant (409), the timestamp within 5 minutes (401), the signature (401), the webhook-id not accepted before (409, replay protection), a JSON body (422). Every request is stored, accepted or rejected with its reason (`GET /tenants/{tenant_id}/webhook-inbox`). Bodies over 256 KiB are refused (413).",
  request: {
    params: tenantIdParamsSchema,
    headers: z.object({
      [WEBHOOK_HEADERS.id]: z.string().openapi({ description: 'The message id, the same on every retry', example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W' }),
      [WEBHOOK_HEADERS.timestamp]: z.string().openapi({ description: 'Unix time in seconds of the signing', example: '1731705121' }),
      [WEBHOOK_HEADERS.signature]: z.string().openapi({ description: 'Space-separated `v1,<base64>` signatures', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
    }),
    body: { required: true, content: json(webhookEventSchema.openapi({ description: 'An event of the catalog; any JSON is stored, its kind and call read where other senders put them' })) },
  },
  responses: {
    200: { description: 'Accepted and stored', content: json(inboxAcceptedSchema) },
    401: { description: 'Stale or future timestamp, or a signature that does not match', content: json(httpErrorSchema) },
    404: { description: 'No such tenant', content: json(httpErrorSchema) },
    409: { description: 'No secret set for the tenant, or a webhook-id already accepted (a replay)', content: json(httpErrorSchema) },
    413: { description: 'Body over 256 KiB', content: json(httpErrorSchema) },
    422: { description: 'Missing or malformed headers, or a body that is not JSON', content: json(httpValidationErrorSchema) },
  },
}

/** Headers as one plain object, names lower-cased. */
const headersOf = (request: Request) => Object.fromEntries([...request.headers.entries()])

function remoteAddress(c: Parameters<typeof getConnInfo>[0]): string | null {
  try {
    return getConnInfo(c).remote.address ?? null
  } catch {
    // Not served by the Node adaptor (app.request in tests): no socket to ask.
    return null
  }
}

/** The webhook operations: the tenant's secret, test-sends and their log, the inbox. */
export function webhookRoutes(webhooks: WebhooksService, authenticate: Authenticate): ModuleApp {
  const app = createModuleApp()
  const bearer = requireBearer(authenticate)
  app.use('/tenants/:tenant_id/webhook-secret', bearer)
  app.on('POST', '/tenants/:tenant_id/webhook-secret', requireAdmin)
  app.use('/tenants/:tenant_id/webhook-deliveries', bearer)
  app.on('POST', '/tenants/:tenant_id/webhook-deliveries', requireAdmin)
  app.use('/tenants/:tenant_id/webhook-inbox', bearer)
  app.use('/webhook-deliveries/*', bearer)
  app.on('POST', '/webhook-deliveries/:delivery_id/replay', requireAdmin)
  // The body guards only for POST, so another method still gets its 405.
  for (const path of ['/tenants/:tenant_id/webhook-deliveries', '/tenants/:tenant_id/webhook-secret', '/webhook-deliveries/:delivery_id/replay']) {
    for (const guard of jsonBody()) app.on('POST', path, guard)
  }

  app.openapi(getSecret, async (c) => c.json(await webhooks.secretStatus(c.get('principal'), c.req.valid('param').tenant_id), 200))
  app.openapi(putSecret, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { secret?: string }
    return c.json(await webhooks.setSecret(c.get('principal'), c.req.valid('param').tenant_id, body.secret), 200)
  })
  app.openapi(testSend, async (c) => c.json(await webhooks.testSend(c.get('principal'), c.req.valid('param').tenant_id, c.req.valid('json')), 202))
  app.openapi(listDeliveries, async (c) => c.json(await webhooks.deliveries(c.get('principal'), c.req.valid('param').tenant_id, c.req.valid('query').limit), 200))
  app.openapi(getDelivery, async (c) => c.json(await webhooks.delivery(c.get('principal'), c.req.valid('param').delivery_id), 200))
  app.openapi(replay, async (c) => {
    const body = (c.req.valid('json') ?? {}) as { new_id?: boolean; url?: string }
    return c.json(await webhooks.replay(c.get('principal'), c.req.valid('param').delivery_id, body), 202)
  })
  app.openapi(listInbox, async (c) => c.json(await webhooks.inbox(c.get('principal'), c.req.valid('param').tenant_id, c.req.valid('query').limit), 200))

  app.openAPIRegistry.registerPath(inboxDoc)
  const inboxLimit = bodyLimit({
    maxSize: WEBHOOK_LIMITS.bodyMaxBytes,
    onError: (c) => c.json({ detail: `Request body too large: the inbox takes at most ${WEBHOOK_LIMITS.bodyMaxBytes} bytes (256 KiB)` }, 413),
  })
  app.post('/webhooks/inbox/:tenant_id', inboxLimit, async (c) => {
    const params = tenantIdParamsSchema.safeParse(c.req.param())
    if (!params.success) {
      // The same 422 as every other path parameter (module-app's hook is not on this plain route).
      return c.json({ detail: toValidationErrors('path', params.error.issues, c.req.param()) }, 422)
    }
    const answer = await webhooks.receive({ tenantId: params.data.tenant_id, body: await c.req.text(), headers: headersOf(c.req.raw), remoteAddress: remoteAddress(c) })
    return c.json(answer.body, answer.status)
  })
  return app
}
