import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { Webhook, WebhookVerificationError } from 'standardwebhooks'
import type { ValidationError } from '../../../src-shared/schemas/errors'
import { WEBHOOK_HEADERS } from '../../../src-shared/schemas/webhook-events'
import { WEBHOOK_LIMITS } from '../../../src-shared/schemas/webhooks'
import type { Database } from '../../db/schema'
import { isUniqueViolation } from '../../db/store-errors'
import { isoNow } from '../../lib/clock'
import * as repo from './webhooks.repo'

/*
 * The inbox (issue 18, point 4): events a real backend sends to this laptop, checked as a
 * careful receiver checks them, in this order, each refusal with its reason (docs/api.md, "Inbox"):
 * the three Standard Webhooks headers present and well formed (422), a secret to check against
 * (409), the timestamp within 5 minutes of this machine's clock (401), a v1 signature matching
 * (401, verified by the `standardwebhooks` package), the webhook-id not accepted before (409), the
 * body JSON (422). Accepted and rejected requests are both stored, so the console can show why a
 * backend's events are refused; rejected ones are capped in number and size.
 */

/** Standard Webhooks' recommended tolerance, the package's own. */
export const TOLERANCE_SECONDS = 5 * 60
/** Rejected requests kept per tenant (the newest); older ones are deleted. */
export const REJECTED_KEPT = 200

export interface InboxRequest {
  tenantId: string
  body: string
  headers: Record<string, string>
  remoteAddress: string | null
}

export type InboxAnswer =
  | { status: 200; body: { status: 'accepted'; id: string; webhook_id: string; event_type: string | null; call_id: string | null } }
  | { status: 401 | 409; body: { detail: string } }
  | { status: 422; body: { detail: ValidationError[] } }

/** Headers worth keeping to debug a sender: content type, agent, forwarding, and every webhook one. */
export function keptHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase()
    if (/^(content-type|content-length|user-agent|x-forwarded-for|webhook-.*|svix-.*)$/.test(key)) out[key] = value.slice(0, 1000)
  }
  return out
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 && value.length <= 200 ? value : null)
const obj = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {})

/**
 * The event's kind and call, as Callscope's catalog names them (`type`, `data.call_id`) or as other
 * senders do: Retell's `event` and `call.call_id`, Vapi's `message.type` and `message.call.id`.
 */
export function eventFacts(parsed: unknown): { eventType: string | null; callId: string | null } {
  const root = obj(parsed)
  const data = obj(root.data)
  const message = obj(root.message)
  const eventType = text(root.type) ?? text(root.event) ?? text(message.type)
  const callId =
    text(data.call_id) ?? text(obj(data.call).id) ?? text(obj(root.call).call_id) ?? text(obj(root.call).id) ?? text(obj(message.call).id) ?? text(root.call_id)
  return { eventType, callId }
}

const missing = (header: string): ValidationError => ({ type: 'missing', loc: ['header', header], msg: 'Field required', input: null })

/** The Standard Webhooks headers, or the validation errors of those missing or malformed. */
function readHeaders(headers: Record<string, string>): { id: string; timestamp: number; signature: string } | ValidationError[] {
  const get = (name: string) => headers[name]?.trim() || undefined
  const id = get(WEBHOOK_HEADERS.id)
  const ts = get(WEBHOOK_HEADERS.timestamp)
  const signature = get(WEBHOOK_HEADERS.signature)
  const errors: ValidationError[] = []
  if (!id) errors.push(missing(WEBHOOK_HEADERS.id))
  else if (id.length > 200) errors.push({ type: 'string_too_long', loc: ['header', WEBHOOK_HEADERS.id], msg: 'String should have at most 200 characters', input: id.slice(0, 200), ctx: { max_length: 200 } })
  if (!ts) errors.push(missing(WEBHOOK_HEADERS.timestamp))
  else if (!/^\d{1,12}$/.test(ts)) errors.push({ type: 'int_parsing', loc: ['header', WEBHOOK_HEADERS.timestamp], msg: 'Input should be a valid integer: whole seconds since 1970 (Unix time)', input: ts.slice(0, 100) })
  if (!signature) errors.push(missing(WEBHOOK_HEADERS.signature))
  else if (!/(^|\s)v1,\S+/.test(signature)) errors.push({ type: 'value_error', loc: ['header', WEBHOOK_HEADERS.signature], msg: 'Value error, expected one or more space-separated `v1,<base64>` signatures', input: signature.slice(0, 200) })
  if (errors.length > 0) return errors
  return { id: id!, timestamp: Number(ts), signature: signature! }
}

export interface InboxDeps {
  /** The tenant's secret and its hint; null when none is set. */
  secretFor: (tenantId: string) => Promise<{ secret: string; hint: string } | null>
  /** Told of each stored request (the console's live view). */
  onStored: (tenantId: string) => void
  now?: () => number
}

/** Checks and stores one request to the inbox of a tenant that exists. */
export async function receive(db: Kysely<Database>, deps: InboxDeps, req: InboxRequest): Promise<InboxAnswer> {
  const receivedAt = isoNow()
  const headers = keptHeaders(req.headers)
  const store = async (fields: { status: 'accepted' | 'rejected'; reason: string | null; webhookId: string | null; signedAt: string | null; facts: { eventType: string | null; callId: string | null } }) => {
    const rejected = fields.status === 'rejected'
    const cap = rejected ? WEBHOOK_LIMITS.rejectedBodyMaxBytes : WEBHOOK_LIMITS.bodyMaxBytes
    const body = Buffer.byteLength(req.body) > cap ? Buffer.from(req.body).subarray(0, cap).toString('utf8') : req.body
    const id = `evt_${randomUUID().replaceAll('-', '')}`
    // One transaction: a refusal stored without its pruning (a full disk between the two) would
    // answer 507 for a row that stayed.
    await db.transaction().execute(async (trx) => {
      await repo.insertInbox(trx, {
        id, tenant_id: req.tenantId, status: fields.status, reason: fields.reason, webhook_id: fields.webhookId?.slice(0, 200) ?? null,
        event_type: fields.facts.eventType, call_id: fields.facts.callId, signed_at: fields.signedAt, received_at: receivedAt,
        headers: JSON.stringify(headers), body, body_truncated: body.length < req.body.length ? 1 : 0, remote_address: req.remoteAddress,
      })
      if (rejected) await repo.pruneRejected(trx, req.tenantId, REJECTED_KEPT)
    })
    deps.onStored(req.tenantId)
    return id
  }
  const unparsedFacts = (() => {
    try {
      return eventFacts(JSON.parse(req.body))
    } catch {
      return { eventType: null, callId: null }
    }
  })()
  const reject = async <S extends 401 | 409 | 422>(status: S, reason: string, webhookId: string | null, signedAt: string | null, detail?: ValidationError[]) => {
    await store({ status: 'rejected', reason, webhookId, signedAt, facts: unparsedFacts })
    return { status, body: { detail: detail ?? reason } } as InboxAnswer
  }

  const read = readHeaders(req.headers)
  if (Array.isArray(read)) {
    const reason = read.map((e) => `${e.loc[1]}: ${e.msg}`).join('; ')
    return reject(422, `Missing or malformed Standard Webhooks headers (${reason})`, req.headers[WEBHOOK_HEADERS.id] ?? null, null, read)
  }
  const signedAt = new Date(read.timestamp * 1000).toISOString()
  const key = await deps.secretFor(req.tenantId)
  if (!key) {
    return reject(409, 'This tenant has no webhook signing secret in Callscope yet: set the one your backend signs with (Webhooks tab, or `callscope webhook secret --tenant ID --set`) and send again', read.id, signedAt)
  }
  const skew = Math.round((deps.now?.() ?? Date.now()) / 1000) - read.timestamp
  if (Math.abs(skew) > TOLERANCE_SECONDS) {
    const when = skew > 0 ? `${skew} s old` : `${-skew} s in the future`
    return reject(401, `Stale or future webhook-timestamp: signed ${when}, more than ${TOLERANCE_SECONDS} s from this machine's clock (a replayed request, or a clock that is off)`, read.id, signedAt)
  }
  try {
    new Webhook(key.secret).verify(req.body, { [WEBHOOK_HEADERS.id]: read.id, [WEBHOOK_HEADERS.timestamp]: String(read.timestamp), [WEBHOOK_HEADERS.signature]: read.signature }, { jsonParse: false })
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    return reject(401, `Invalid webhook-signature: no v1 signature is the HMAC-SHA256 of "webhook-id.webhook-timestamp.body" under this tenant's secret (${key.hint}). Check that the backend signs with that secret and that the body arrives byte for byte as signed`, read.id, signedAt)
  }
  const before = await repo.acceptedWithId(db, req.tenantId, read.id)
  if (before) return reject(409, `Replayed webhook-id: ${read.id} was already accepted at ${before.received_at}`, read.id, signedAt)
  let parsed: unknown
  try {
    parsed = JSON.parse(req.body)
  } catch (error) {
    const detail: ValidationError[] = [{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: {}, ctx: { error: (error as Error).message } }]
    return reject(422, 'The body is correctly signed but is not JSON', read.id, signedAt, detail)
  }
  const facts = eventFacts(parsed)
  let id: string
  try {
    id = await store({ status: 'accepted', reason: null, webhookId: read.id, signedAt, facts })
  } catch (error) {
    // The same id arriving twice at once: the unique index lets one in (on either store).
    if (isUniqueViolation(error)) return reject(409, `Replayed webhook-id: ${read.id} was already accepted`, read.id, signedAt)
    throw error
  }
  return { status: 200, body: { status: 'accepted', id, webhook_id: read.id, event_type: facts.eventType, call_id: facts.callId } }
}
