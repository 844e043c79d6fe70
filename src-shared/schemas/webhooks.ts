import { laxUuid } from './params'
import { WEBHOOK_EVENT_KINDS } from './webhook-events'
import { z } from './zod'

/*
 * Webhook test-send, delivery log, signing secrets and inbox (issue 18): Callscope extensions of
 * the REST port (tag "Webhooks (Callscope extension)") and the console's tRPC procedures. The
 * events themselves are in webhook-events.ts; the decisions are in docs/api.md, "Webhooks".
 */

export const WEBHOOK_LIMITS = {
  /** A target URL's length. */
  urlMax: 2048,
  /** A signed event body Callscope builds or the inbox accepts (the transcript is cut to fit). */
  bodyMaxBytes: 256 * 1024,
  /** Of a receiver's answer, read at most this much; the rest is not waited for. */
  responseReadMaxBytes: 64 * 1024,
  /** And keep this much of it in the delivery log. */
  responseExcerptMaxBytes: 4 * 1024,
  /** A rejected inbox request's body is kept up to this much (enough to see what was signed). */
  rejectedBodyMaxBytes: 4 * 1024,
  /** No attempt waits longer than this, whatever the tenant's webhook_timeout_seconds says. */
  timeoutSecondsMax: 120,
  /** Deliveries and inbox events listed at once. */
  listMax: 200,
  listDefault: 50,
} as const

/**
 * The wait before each attempt after the previous one failed, before jitter (±20 %): the first at
 * once, then 5 s, 30 s, 2 min, 10 min and 30 min. Six attempts in all, the last about 43 minutes
 * after the first (plus the attempts' own time). Documented in docs/api.md ("Retries").
 */
export const RETRY_SCHEDULE_MS = [0, 5_000, 30_000, 120_000, 600_000, 1_800_000] as const
export const RETRY_JITTER = 0.2

/** Why an attempt failed before any HTTP status came back. */
export const DELIVERY_ERROR_KINDS = ['dns', 'refused', 'tls', 'timeout', 'reset', 'blocked', 'protocol', 'too_large', 'other'] as const
export type DeliveryErrorKind = (typeof DELIVERY_ERROR_KINDS)[number]

export const DELIVERY_STATUSES = ['pending', 'retrying', 'succeeded', 'failed', 'interrupted'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

const iso = (description: string) => z.string().openapi({ format: 'date-time', description })
const isoOrNull = (description: string) => z.string().nullable().openapi({ format: 'date-time', description })
const headerMap = z.record(z.string(), z.string())

export const tenantIdParamsSchema = z.object({ tenant_id: laxUuid().openapi({ param: { description: 'Tenant id' } }) })
export const deliveryIdParamsSchema = z.object({
  delivery_id: z.string().min(1).max(100).openapi({ param: { description: 'Delivery id (`dlv_…`)' } }),
})

/** A target: absolute http(s) URL without credentials (checked again, with its address, before sending). */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(WEBHOOK_LIMITS.urlMax)
  .refine((text) => {
    if (!URL.canParse(text)) return false
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
  }, 'Input should be an absolute http or https URL without user name or password')
  .openapi({ description: 'An http or https URL', example: 'https://hooks.example.com/voice/events' })

export const testSendBodySchema = z
  .object({
    event: z.enum(WEBHOOK_EVENT_KINDS).openapi({ description: 'The kind of event to send' }),
    url: webhookUrlSchema.optional().openapi({ description: "Where to send it; default: the tenant's webhook_url" }),
    call_id: z.string().min(1).max(100).optional().openapi({ description: "The stored call to build it from; default: the tenant's newest call that fits the kind" }),
  })
  .openapi('WebhookTestSend')
export type TestSendBody = z.infer<typeof testSendBodySchema>

export const replayBodySchema = z
  .object({
    new_id: z.boolean().default(false).openapi({ description: 'Send under a new webhook-id (a new message) instead of the original one (a redelivery a receiver should deduplicate)' }),
    url: webhookUrlSchema.optional().openapi({ description: 'Where to send it; default: where the original went' }),
  })
  .openapi('WebhookReplay')

export const deliveryAttemptSchema = z
  .object({
    number: z.number().int().openapi({ description: '1 for the first attempt' }),
    started_at: iso('When the request was sent'),
    url: z.string(),
    address: z.string().nullable().openapi({ description: 'The IP address connected to (null: no connection was made)' }),
    request_headers: headerMap.openapi({ description: 'Headers sent, the Standard Webhooks ones included (webhook-signature is a signature, not the secret)' }),
    response_status: z.number().int().nullable(),
    response_headers: headerMap.nullable(),
    response_excerpt: z.string().nullable().openapi({ description: `The first ${WEBHOOK_LIMITS.responseExcerptMaxBytes} bytes of the answer's body` }),
    response_truncated: z.boolean(),
    latency_ms: z.number().int().openapi({ description: 'From sending to the end of the answer, or to the failure' }),
    error_kind: z.enum(DELIVERY_ERROR_KINDS).nullable().openapi({ description: 'dns, refused, tls, timeout, reset, blocked (a private address not allowed), protocol, too_large, other; null when a status came back' }),
    error_message: z.string().nullable(),
    succeeded: z.boolean().openapi({ description: 'A 2xx status came back' }),
    next_retry_at: isoOrNull('When the next attempt is due (null: none follows)'),
  })
  .openapi('WebhookDeliveryAttempt')
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>

export const deliverySchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    event_type: z.string(),
    webhook_id: z.string().openapi({ description: 'The webhook-id header: the same on every attempt and on a redelivery' }),
    call_id: z.string().nullable(),
    url: z.string(),
    status: z.enum(DELIVERY_STATUSES).openapi({ description: 'pending (an attempt is under way), retrying (waiting for the next), succeeded, failed (no attempt left, or not worth retrying), interrupted (the process that sent it stopped before it finished)' }),
    attempt_count: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: isoOrNull('When the next attempt is due'),
    last_status: z.number().int().nullable().openapi({ description: "The last attempt's HTTP status" }),
    last_error_kind: z.enum(DELIVERY_ERROR_KINDS).nullable(),
    created_at: iso('When the delivery was asked for'),
    finished_at: isoOrNull('When it succeeded or gave up'),
    replay_of: z.string().nullable().openapi({ description: 'The delivery this one replays' }),
    source: z.enum(['stored', 'example']).openapi({ description: 'stored: built from a stored call or session; example: the tenant has none that fits, so the values are made up' }),
  })
  .openapi('WebhookDelivery')
export type Delivery = z.infer<typeof deliverySchema>

export const deliveryDetailSchema = deliverySchema
  .extend({
    request_body: z.string().openapi({ description: 'The signed body, the same bytes on every attempt' }),
    attempts: z.array(deliveryAttemptSchema),
  })
  .openapi('WebhookDeliveryDetail')
export type DeliveryDetail = z.infer<typeof deliveryDetailSchema>

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(WEBHOOK_LIMITS.listMax).default(WEBHOOK_LIMITS.listDefault).openapi({ description: 'Newest first, at most this many' }),
})

export const deliveryListSchema = z
  .object({ deliveries: z.array(deliverySchema), total: z.number().int() })
  .openapi('WebhookDeliveryList')

export const inboxEventSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    status: z.enum(['accepted', 'rejected']),
    reason: z.string().nullable().openapi({ description: 'Why it was rejected' }),
    webhook_id: z.string().nullable(),
    event_type: z.string().nullable().openapi({ description: "The body's `type` (or `event`, `message.type` as other senders name it)" }),
    call_id: z.string().nullable().openapi({ description: 'The call it belongs to, read from the body' }),
    signed_at: isoOrNull('The webhook-timestamp header as an instant'),
    received_at: iso('When Callscope received it'),
    headers: headerMap.openapi({ description: 'The request headers that matter to webhooks (content-type, user-agent, webhook-*)' }),
    body: z.string().openapi({ description: `The body as received (a rejected one: its first ${WEBHOOK_LIMITS.rejectedBodyMaxBytes} bytes)` }),
    body_truncated: z.boolean(),
    remote_address: z.string().nullable(),
  })
  .openapi('WebhookInboxEvent')
export type InboxEvent = z.infer<typeof inboxEventSchema>

export const inboxListSchema = z.object({ events: z.array(inboxEventSchema), total: z.number().int() }).openapi('WebhookInboxList')

export const inboxAcceptedSchema = z
  .object({ status: z.literal('accepted'), id: z.string(), webhook_id: z.string(), event_type: z.string().nullable(), call_id: z.string().nullable() })
  .openapi('WebhookInboxAccepted')

export const secretStatusSchema = z
  .object({
    tenant_id: z.string(),
    configured: z.boolean(),
    hint: z.string().nullable().openapi({ description: 'The prefix and last four characters, to tell secrets apart; never the secret' }),
    created_at: isoOrNull('When the current secret was made or set'),
  })
  .openapi('WebhookSecretStatus')
export type SecretStatus = z.infer<typeof secretStatusSchema>

export const secretShownOnceSchema = secretStatusSchema
  .extend({
    secret: z.string().openapi({ description: 'The signing secret (`whsec_` and base64): shown this once, never again' }),
    replaced: z.boolean().openapi({ description: 'A previous secret existed and no longer verifies or signs anything' }),
  })
  .openapi('WebhookSecretCreated')
export type SecretShownOnce = z.infer<typeof secretShownOnceSchema>

/** `whsec_` and base64 of 24 to 64 bytes: what Standard Webhooks senders hand out. */
export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/

export const secretBodySchema = z
  .object({
    secret: z
      .string()
      .regex(WEBHOOK_SECRET_PATTERN, 'Input should be a Standard Webhooks secret: whsec_ and the base64 of 24 to 64 bytes')
      .optional()
      .openapi({ description: "Set this secret (your backend's) instead of making a new one" }),
  })
  .openapi('WebhookSecretSet')

export const webhookSettingsSchema = z
  .object({
    allow_private_targets: z.boolean().openapi({ description: 'Whether test-sends may go to loopback, private and link-local addresses (default false)' }),
  })
  .openapi('WebhookSettings')
export type WebhookSettings = z.infer<typeof webhookSettingsSchema>
