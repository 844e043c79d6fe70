import { z } from './zod'

/*
 * The event catalog (issue 18, point 1): what a voice-agent backend sends to a tenant's
 * `webhook_url`. The spec names the address and its timeout and leaves the events "not shown";
 * the kinds and payloads below are Callscope's decision (docs/api.md, "Webhook events"), close to
 * what Vapi (status-update, end-of-call-report, transfer-destination-request) and Retell
 * (call_started, call_ended, call_analyzed) send, in the envelope the Standard Webhooks
 * specification recommends: `{ type, timestamp, data }`.
 *
 * The same schemas validate what Callscope builds before it signs it, type the console, and are
 * published under `webhooks` in /openapi.json (OpenAPI 3.1).
 */

export const WEBHOOK_EVENT_KINDS = [
  'call.started',
  'call.ended',
  'call.failed',
  'transfer.completed',
  'session.ended',
  'recording.ready',
] as const
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number]

/** What each kind means, for the OpenAPI document, the console's picker and `--help`. */
export const WEBHOOK_EVENT_SUMMARIES: Record<WebhookEventKind, string> = {
  'call.started': 'A call was answered by the platform (inbound) or placed by it (outbound).',
  'call.ended': 'A call ended normally: its outcome, duration, transcript, transfers and recording address.',
  'call.failed': 'A call ended because of a failure (a provider outage, a SIP error): the error and where it happened.',
  'transfer.completed': 'A hand-over from one agent to another finished, successfully or not.',
  'session.ended': 'A session (the conversation a call or a chat carried) was closed, with its outcome and counts.',
  'recording.ready': "A call's recording was saved and can be fetched until its retention ends.",
}

/** At most this many transcript messages travel in `call.ended`; `transcript_truncated` says when more existed. */
export const TRANSCRIPT_MESSAGES_MAX = 200
/** And each message's content is cut to this many characters. */
export const TRANSCRIPT_CONTENT_MAX = 2000

const iso = (description: string) => z.string().openapi({ format: 'date-time', description })
const isoOrNull = (description: string) => z.string().nullable().openapi({ format: 'date-time', description })

/** Who a call belongs to: the fields by which a receiver (and Callscope's inbox) finds the call. */
const callIds = {
  call_id: z.string().openapi({ description: 'The call (the `call_id` of its log lines)' }),
  tenant_id: z.string(),
  agent_id: z.string().nullable().openapi({ description: 'The agent handling the call (the first of a transfer chain)' }),
  session_id: z.string().nullable().openapi({ description: 'The session (conversation) the call carries' }),
}

const callParties = {
  direction: z.string().openapi({ description: 'inbound or outbound' }),
  from_number: z.string().nullable().openapi({ description: 'E.164' }),
  to_number: z.string().nullable().openapi({ description: 'E.164' }),
}

export const callStartedDataSchema = z
  .object({ ...callIds, ...callParties, started_at: iso('When the call started') })
  .openapi('CallStartedData')

export const transcriptMessageSchema = z
  .object({
    role: z.string().openapi({ description: 'user, assistant, tool or system' }),
    content: z.string(),
    at: iso('When the message was written'),
  })
  .openapi('WebhookTranscriptMessage')

export const callEndedDataSchema = z
  .object({
    ...callIds,
    ...callParties,
    status: z.string().openapi({ description: 'completed' }),
    end_reason: z.string().nullable().openapi({ description: 'caller_hangup, agent_hangup, transferred, transfer_failed, …' }),
    started_at: iso('When the call started'),
    answered_at: isoOrNull('When an agent answered'),
    ended_at: iso('When the call ended'),
    duration_ms: z.number().int().nullable(),
    transfer_count: z.number().int(),
    transcript: z.array(transcriptMessageSchema).openapi({ description: `The session's messages in order (the first ${TRANSCRIPT_MESSAGES_MAX}, each cut to ${TRANSCRIPT_CONTENT_MAX} characters)` }),
    transcript_truncated: z.boolean(),
    recording_url: z.string().nullable().openapi({ description: 'Where the recording can be fetched, when one was made' }),
  })
  .openapi('CallEndedData')

export const callFailedDataSchema = z
  .object({
    ...callIds,
    ...callParties,
    status: z.string().openapi({ description: 'failed' }),
    end_reason: z.string().nullable().openapi({ description: 'llm_unavailable, stt_unavailable, sip_503, …' }),
    started_at: iso('When the call started'),
    ended_at: isoOrNull('When the call ended'),
    duration_ms: z.number().int().nullable(),
    error: z
      .object({
        code: z.string().openapi({ description: 'The end reason, or `unknown`' }),
        message: z.string().openapi({ description: "The call's first error line, else a sentence built from the end reason" }),
        component: z.string().nullable().openapi({ description: 'Where it failed: sip, stt, llm, tts, tool, …' }),
      })
      .openapi('WebhookCallError'),
  })
  .openapi('CallFailedData')

export const transferCompletedDataSchema = z
  .object({
    ...callIds,
    from_agent_id: z.string().nullable(),
    to_agent_id: z.string().nullable(),
    reason: z.string().nullable().openapi({ description: 'language, escalation, skill, overflow, customer_request, after_hours' }),
    outcome: z.string().openapi({ description: 'success or failed' }),
    latency_ms: z.number().int().nullable().openapi({ description: 'How long the hand-over took' }),
    requested_at: iso('When the transfer was requested'),
  })
  .openapi('TransferCompletedData')

export const sessionEndedDataSchema = z
  .object({
    session_id: z.string(),
    tenant_id: z.string(),
    agent_id: z.string().nullable(),
    call_id: z.string().nullable().openapi({ description: 'The call that carried the session (null for a chat)' }),
    channel: z.string().openapi({ description: 'voice or chat' }),
    status: z.string().openapi({ description: 'completed, transferred, abandoned or failed' }),
    language: z.string().nullable(),
    message_count: z.number().int(),
    started_at: iso('When the session started'),
    ended_at: iso('When it ended'),
    resolved: z.boolean().nullable().openapi({ description: "Whether the caller's request was resolved, when known" }),
  })
  .openapi('SessionEndedData')

export const recordingReadyDataSchema = z
  .object({
    ...callIds,
    recording_url: z.string(),
    format: z.string().openapi({ description: 'mp4, wav, mp3, …' }),
    size_bytes: z.number().int().nullable(),
    duration_ms: z.number().int().nullable(),
    retention_days: z.number().int().nullable(),
    saved_at: iso('When the recording was saved'),
  })
  .openapi('RecordingReadyData')

export const WEBHOOK_EVENT_DATA = {
  'call.started': callStartedDataSchema,
  'call.ended': callEndedDataSchema,
  'call.failed': callFailedDataSchema,
  'transfer.completed': transferCompletedDataSchema,
  'session.ended': sessionEndedDataSchema,
  'recording.ready': recordingReadyDataSchema,
} as const satisfies Record<WebhookEventKind, z.ZodType>

/** `CallStarted` for `call.started`: the name of an event kind's envelope in the OpenAPI document. */
const envelopeName = (kind: WebhookEventKind) =>
  kind
    .split(/[._]/)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') + 'Event'

function envelope<K extends WebhookEventKind>(kind: K) {
  return z
    .object({
      type: z.literal(kind),
      timestamp: iso('When the event happened (the same instant for every attempt to deliver it)'),
      data: WEBHOOK_EVENT_DATA[kind] as (typeof WEBHOOK_EVENT_DATA)[K],
    })
    .openapi(envelopeName(kind), { description: WEBHOOK_EVENT_SUMMARIES[kind] })
}

export const WEBHOOK_EVENT_SCHEMAS = {
  'call.started': envelope('call.started'),
  'call.ended': envelope('call.ended'),
  'call.failed': envelope('call.failed'),
  'transfer.completed': envelope('transfer.completed'),
  'session.ended': envelope('session.ended'),
  'recording.ready': envelope('recording.ready'),
} as const

/** Any event of the catalog, told apart by `type`. */
export const webhookEventSchema = z.discriminatedUnion('type', [
  WEBHOOK_EVENT_SCHEMAS['call.started'],
  WEBHOOK_EVENT_SCHEMAS['call.ended'],
  WEBHOOK_EVENT_SCHEMAS['call.failed'],
  WEBHOOK_EVENT_SCHEMAS['transfer.completed'],
  WEBHOOK_EVENT_SCHEMAS['session.ended'],
  WEBHOOK_EVENT_SCHEMAS['recording.ready'],
])

export type WebhookEvent = z.infer<typeof webhookEventSchema>
export type WebhookEventOf<K extends WebhookEventKind> = z.infer<(typeof WEBHOOK_EVENT_SCHEMAS)[K]>

/** The Standard Webhooks headers every delivery carries (the names are the specification's). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const
