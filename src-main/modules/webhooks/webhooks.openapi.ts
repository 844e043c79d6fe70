import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi'
import { WEBHOOK_EVENT_KINDS, WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_SUMMARIES, WEBHOOK_HEADERS } from '../../../src-shared/schemas/webhook-events'
import { RETRY_SCHEDULE_MS } from '../../../src-shared/schemas/webhooks'
import { z } from '../../../src-shared/schemas/zod'

const signatureHeaders = z.object({
  [WEBHOOK_HEADERS.id]: z.string().openapi({ description: 'The message id (`msg_…`): the same on every retry of one event, so receivers can deduplicate', example: 'msg_9f1c2e0b5a6d4c3e8f7a6b5c4d3e2f10' }),
  [WEBHOOK_HEADERS.timestamp]: z.string().openapi({ description: 'Unix time in seconds of this attempt\'s signing; refuse it when more than 5 minutes from your clock', example: '1731705121' }),
  [WEBHOOK_HEADERS.signature]: z.string().openapi({ description: '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under the base64-decoded part of the tenant\'s `whsec_` secret', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
})

const schedule = RETRY_SCHEDULE_MS.map((ms) => (ms === 0 ? 'at once' : ms < 60_000 ? `${ms / 1000} s` : `${ms / 60_000} min`)).join(', ')

/**
 * The event catalog as OpenAPI 3.1's top-level `webhooks`: one entry per kind, the POST a tenant's
 * `webhook_url` receives, with the Standard Webhooks headers and the event's schema.
 */
export function registerWebhookEvents(registry: OpenAPIRegistry): void {
  for (const kind of WEBHOOK_EVENT_KINDS) {
    registry.registerWebhook({
      method: 'post',
      path: kind,
      operationId: `webhook_${kind.replace('.', '_')}`,
      tags: ['Webhook events'],
      // Sent by the backend to the receiver: its credential is the signature, not a bearer token.
      security: [],
      summary: kind,
      description:
        `${WEBHOOK_EVENT_SUMMARIES[kind]} Sent to the tenant's \`webhook_url\` as a JSON POST signed by the Standard Webhooks scheme. ` +
        `Answer 2xx within the tenant's \`webhook_timeout_seconds\`; anything else is retried (waits: ${schedule}, each ±20 %). Decisions: docs/api.md, "Webhook events".`,
      request: { headers: signatureHeaders, body: { required: true, content: { 'application/json': { schema: WEBHOOK_EVENT_SCHEMAS[kind] } } } },
      responses: {
        200: { description: 'Received. Any 2xx will do; other statuses, redirects included, count as failures and are retried.' },
      },
    })
  }
}
