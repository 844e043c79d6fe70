import { EventEmitter } from 'node:events'
import type { Kysely } from 'kysely'
import type { CallDetail } from '../../../src-shared/schemas/call-detail'
import type { WebhookEvent, WebhookEventKind } from '../../../src-shared/schemas/webhook-events'
import {
  type Delivery,
  type DeliveryDetail,
  type InboxEvent,
  type SecretShownOnce,
  type SecretStatus,
  type TestSendBody,
  WEBHOOK_LIMITS,
  WEBHOOK_SECRET_PATTERN,
  type WebhookSettings,
} from '../../../src-shared/schemas/webhooks'
import { restated } from '../../../src-shared/store-faults'
import type { Database } from '../../db/schema'
import { assertAdmin, canSeeTenant, OWNER, type Principal, sourceScope } from '../../kit/access'
import { ConflictError, InvalidInputError, NotFoundError } from '../../kit/errors'
import { isoNow } from '../../lib/clock'
import type { CallsService } from '../calls/calls.service'
import { type SecretBox, SecretBoxError } from '../providers/secret-box'
import { findTenant, type SourcedTenantRow } from '../tenants/tenants.repo'
import { createDeliverer, type AttemptNotice } from './deliverer'
import { eventFromCall, eventFromSession, exampleEvent, serializeEvent, type SessionFacts, unfitReason } from './event-builder'
import { type InboxRequest, receive } from './inbox'
import { defaultSchedule } from './retry-schedule'
import { newSecret, newWebhookId, secretHint } from './signer'
import * as repo from './webhooks.repo'

export interface WebhooksOptions {
  secretBox: SecretBox
  calls: CallsService
  /** Waits before each attempt (default: the documented schedule, or CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS). */
  retrySchedule?: readonly number[]
  /** Sent as User-Agent. */
  userAgent?: string
}

export interface SendOptions {
  /** Allows loopback and private targets for this send, whatever the setting says (`--allow-private`). */
  allowPrivate?: boolean
}

const sealContext = (tenantId: string) => `webhook_secrets:${tenantId}`

const parseJson = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T))

/** Which stored calls can give an event of a kind, newest first. */
const CALL_FILTER: Record<WebhookEventKind, repo.EventCallFilter> = {
  'call.started': 'any',
  'call.ended': 'completed',
  'call.failed': 'failed',
  'transfer.completed': 'transferred',
  'session.ended': 'any',
  'recording.ready': 'completed',
}
/** Stored calls looked at before falling back to an example. */
const CANDIDATES = 5

export function createWebhooksService(db: Kysely<Database>, options: WebhooksOptions) {
  const { secretBox, calls } = options
  const inboxEvents = new EventEmitter()
  inboxEvents.setMaxListeners(0)

  async function openSecret(tenantId: string): Promise<{ secret: string; hint: string } | null> {
    const row = await repo.findSecret(db, tenantId)
    if (!row) return null
    try {
      return { secret: await secretBox.open(row.secret, sealContext(tenantId)), hint: row.hint }
    } catch (error) {
      // A store restored or copied without its key file (backups leave it out): the secret is
      // there but cannot be opened. The state of the store, not a bug: 409 with what to do, as a
      // tenant without a secret answers, never a 500 on every event received.
      if (!(error instanceof SecretBoxError)) throw error
      throw new ConflictError(
        `The tenant's webhook signing secret cannot be opened: ${error.message}. Put back the key file the secret was sealed with, ` +
          `or give the tenant a secret again (callscope webhook secret --tenant ${tenantId} --rotate, or --set with your backend's).`,
      )
    }
  }

  const deliverer = createDeliverer(db, {
    schedule: options.retrySchedule ?? defaultSchedule(),
    userAgent: options.userAgent ?? 'Callscope-Webhooks/1 (test-send)',
    async secretFor(tenantId) {
      const key = await openSecret(tenantId)
      if (!key) throw new InvalidInputError('the tenant has no webhook signing secret')
      return key.secret
    },
  })

  async function visibleTenant(principal: Principal, tenantId: string): Promise<SourcedTenantRow> {
    // Local or pulled (a mirrored backend's tenant may have its events tested and received here).
    const row = canSeeTenant(principal, tenantId) ? await findTenant(db, tenantId, sourceScope(principal)) : undefined
    if (!row) throw new NotFoundError('Tenant')
    return row
  }

  function toDelivery(row: repo.DeliveryListRow): Delivery {
    return {
      id: row.id, tenant_id: row.tenant_id, event_type: row.event_type, webhook_id: row.webhook_id, call_id: row.call_id, url: row.url,
      status: deliverer.statusOf(row), attempt_count: row.attempt_count, max_attempts: row.max_attempts,
      next_attempt_at: deliverer.statusOf(row) === 'retrying' ? row.next_attempt_at : null, last_status: row.last_status,
      last_error_kind: row.last_error_kind as Delivery['last_error_kind'], created_at: row.created_at, finished_at: row.finished_at,
      replay_of: row.replay_of, source: row.source,
    }
  }

  function toInbox(row: repo.InboxRow): InboxEvent {
    return { ...row, headers: parseJson<Record<string, string>>(row.headers) ?? {}, body_truncated: row.body_truncated === 1 }
  }

  /** The event to send: from the given call, else the newest stored call (or session) that fits, else an example. */
  async function buildEvent(principal: Principal, tenant: SourcedTenantRow, kind: WebhookEventKind, callId?: string): Promise<{ event: WebhookEvent; rebuild?: (max: number) => WebhookEvent; callId: string | null; source: 'stored' | 'example' }> {
    const fromDetail = async (detail: CallDetail) => {
      if (kind === 'session.ended') {
        const s = await repo.findSession(db, detail.links.session_id!)
        if (!s?.ended_at) return null
        const facts: SessionFacts = { ...s, ended_at: s.ended_at, call_id: detail.call.id, message_count: Number(s.message_count ?? 0) }
        return { event: eventFromSession(facts), callId: detail.call.id, source: 'stored' as const }
      }
      return { event: eventFromCall(kind, detail), rebuild: (max: number) => eventFromCall(kind, detail, max), callId: detail.call.id, source: 'stored' as const }
    }
    if (callId) {
      const detail = await calls.get(principal, callId).catch((error: unknown) => {
        if (error instanceof NotFoundError) throw new InvalidInputError(`call_id: no call ${callId} in this store`)
        throw error
      })
      if (detail.call.tenant_id !== tenant.id) throw new InvalidInputError(`call_id: call ${callId} belongs to another tenant`)
      const unfit = unfitReason(kind, detail)
      if (unfit) throw new InvalidInputError(`call_id: call ${callId} cannot give a ${kind} event: ${unfit}`)
      const built = await fromDetail(detail)
      if (!built) throw new InvalidInputError(`call_id: the session of call ${callId} has not ended`)
      return built
    }
    if (kind === 'session.ended') {
      const session = await repo.newestEndedSession(db, tenant.id)
      const s = session ? await repo.findSession(db, session.id) : undefined
      if (s?.ended_at) {
        const call = await repo.callOfSession(db, s.id)
        return { event: eventFromSession({ ...s, ended_at: s.ended_at, call_id: call?.id ?? null, message_count: Number(s.message_count ?? 0) }), callId: call?.id ?? null, source: 'stored' }
      }
    } else {
      for (const { id } of await repo.newestCalls(db, tenant.id, CALL_FILTER[kind], CANDIDATES)) {
        const detail = await calls.get(OWNER, id)
        if (unfitReason(kind, detail) === null) return (await fromDetail(detail))!
      }
    }
    const event = exampleEvent(kind, tenant.id, new Date())
    return { event, callId: null, source: 'example' }
  }

  async function targetOf(tenant: SourcedTenantRow, url: string | undefined): Promise<string> {
    const target = url ?? tenant.webhook_url
    if (!target) throw new InvalidInputError('url: the tenant has no webhook_url; give the URL to send to')
    return target
  }

  const timeoutMsOf = (tenant: SourcedTenantRow) => Math.min(tenant.webhook_timeout_seconds, WEBHOOK_LIMITS.timeoutSecondsMax) * 1000

  async function detail(principal: Principal, id: string): Promise<DeliveryDetail> {
    const row = await repo.findDelivery(db, id)
    if (!row || !canSeeTenant(principal, row.tenant_id)) throw new NotFoundError('Delivery')
    const attempts = await repo.listAttempts(db, id)
    return {
      ...toDelivery(row),
      request_body: row.payload,
      attempts: attempts.map((a) => ({
        number: a.number, started_at: a.started_at, url: a.url, address: a.address,
        request_headers: parseJson<Record<string, string>>(a.request_headers) ?? {}, response_status: a.response_status,
        response_headers: parseJson<Record<string, string>>(a.response_headers), response_excerpt: a.response_excerpt,
        response_truncated: a.response_truncated === 1, latency_ms: a.latency_ms, error_kind: a.error_kind as DeliveryDetail['attempts'][number]['error_kind'],
        error_message: a.error_message, succeeded: a.succeeded === 1, next_retry_at: a.next_retry_at,
      })),
    }
  }

  return {
    /** Whether the tenant has a signing secret, and its hint; never the secret. */
    async secretStatus(principal: Principal, tenantId: string): Promise<SecretStatus> {
      await visibleTenant(principal, tenantId)
      const row = await repo.findSecret(db, tenantId)
      return { tenant_id: tenantId, configured: row !== undefined, hint: row?.hint ?? null, created_at: row?.created_at ?? null }
    },

    /**
     * Makes a new secret (or sets the given one, a backend's), sealed like provider keys, and
     * answers it this once. The previous one, if any, stops signing and verifying at once.
     */
    async setSecret(principal: Principal, tenantId: string, given?: string): Promise<SecretShownOnce> {
      assertAdmin(principal)
      await visibleTenant(principal, tenantId)
      if (given !== undefined && !WEBHOOK_SECRET_PATTERN.test(given)) throw new InvalidInputError('secret: expected whsec_ and the base64 of 24 to 64 bytes')
      const secret = given ?? newSecret()
      const before = await repo.findSecret(db, tenantId)
      const row = { tenant_id: tenantId, secret: await secretBox.seal(secret, sealContext(tenantId)), hint: secretHint(secret), created_at: isoNow() }
      await repo.putSecret(db, row).catch((error: unknown) => {
        throw restated(error, 'Saving the webhook signing secret')
      })
      return { tenant_id: tenantId, configured: true, hint: row.hint, created_at: row.created_at, secret, replaced: before !== undefined }
    },

    /** Builds an event, signs it and delivers it in the background; answers the delivery as logged so far. */
    async testSend(principal: Principal, tenantId: string, body: TestSendBody, send: SendOptions = {}): Promise<Delivery> {
      assertAdmin(principal)
      const tenant = await visibleTenant(principal, tenantId)
      if (!(await repo.findSecret(db, tenantId))) throw new InvalidInputError('the tenant has no webhook signing secret: create one first (Webhooks tab, or `callscope webhook secret --tenant ID`)')
      const url = await targetOf(tenant, body.url)
      const built = await buildEvent(principal, tenant, body.event, body.call_id)
      const payload = serializeEvent(built.event, built.rebuild)
      const allowPrivate = send.allowPrivate ?? (await repo.allowPrivateTargets(db))
      const id = await deliverer.start({
        tenantId, url, eventType: body.event, webhookId: newWebhookId(), callId: built.callId, payload, source: built.source,
        timeoutMs: timeoutMsOf(tenant), allowPrivate, replayOf: null,
      })
      return toDelivery((await repo.findDelivery(db, id))!)
    },

    /** Sends a logged delivery's body again, under its webhook-id (a redelivery) or a new one. */
    async replay(principal: Principal, deliveryId: string, input: { new_id?: boolean; url?: string } = {}, send: SendOptions = {}): Promise<Delivery> {
      assertAdmin(principal)
      const original = await repo.findDelivery(db, deliveryId)
      if (!original || !canSeeTenant(principal, original.tenant_id)) throw new NotFoundError('Delivery')
      const tenant = await findTenant(db, original.tenant_id, undefined)
      const allowPrivate = send.allowPrivate ?? (await repo.allowPrivateTargets(db))
      const id = await deliverer.start({
        tenantId: original.tenant_id, url: input.url ?? original.url, eventType: original.event_type,
        webhookId: input.new_id ? newWebhookId() : original.webhook_id, callId: original.call_id, payload: original.payload,
        source: original.source, timeoutMs: tenant ? timeoutMsOf(tenant) : 20_000, allowPrivate, replayOf: original.id,
      })
      return toDelivery((await repo.findDelivery(db, id))!)
    },

    async deliveries(principal: Principal, tenantId: string, limit: number = WEBHOOK_LIMITS.listDefault) {
      await visibleTenant(principal, tenantId)
      const [rows, total] = await Promise.all([repo.tenantDeliveries(db, tenantId, limit), repo.countTenantDeliveries(db, tenantId)])
      return { deliveries: rows.map(toDelivery), total }
    },

    delivery: detail,

    async inbox(principal: Principal, tenantId: string, limit: number = WEBHOOK_LIMITS.listDefault) {
      await visibleTenant(principal, tenantId)
      const [rows, total] = await Promise.all([repo.tenantInbox(db, tenantId, limit), repo.countTenantInbox(db, tenantId)])
      return { events: rows.map(toInbox), total }
    },

    /** What was sent and received about one call: the call page's events. */
    async callEvents(principal: Principal, callId: string) {
      const [sent, received] = await Promise.all([repo.callDeliveries(db, callId, WEBHOOK_LIMITS.listMax), repo.callInbox(db, callId, WEBHOOK_LIMITS.listMax)])
      return {
        deliveries: sent.filter((r) => canSeeTenant(principal, r.tenant_id)).map(toDelivery),
        inbox: received.filter((r) => canSeeTenant(principal, r.tenant_id)).map(toInbox),
      }
    },

    /** An event posted to the inbox: checked and stored (inbox.ts). No principal: the signature is the credential. */
    async receive(request: InboxRequest) {
      if (!(await findTenant(db, request.tenantId, undefined))) throw new NotFoundError('Tenant')
      // A full disk answers 507, accepted or not: nothing was stored, so the sender's retry, once
      // there is room, is checked afresh and not refused as a replay (docs/api.md, "A full disk").
      return receive(db, { secretFor: openSecret, onStored: (tenantId) => inboxEvents.emit('stored', tenantId) }, request).catch((error: unknown) => {
        throw restated(error, 'Storing the received webhook event', 'It was not stored: the sender may retry it.')
      })
    },

    async settings(): Promise<WebhookSettings> {
      return { allow_private_targets: await repo.allowPrivateTargets(db) }
    },

    async setSettings(principal: Principal, settings: WebhookSettings): Promise<WebhookSettings> {
      assertAdmin(principal)
      await repo.setAllowPrivateTargets(db, settings.allow_private_targets, isoNow()).catch((error: unknown) => {
        throw restated(error, 'Saving the webhook settings')
      })
      return settings
    },

    whenSettled: deliverer.whenSettled,
    onAttempt: (listener: (notice: AttemptNotice) => void) => deliverer.onAttempt(listener),
    /** Told when the inbox stores a request (accepted or not), with the tenant's id. */
    onInbox(listener: (tenantId: string) => void): () => void {
      inboxEvents.on('stored', listener)
      return () => inboxEvents.off('stored', listener)
    },
    close: deliverer.close,
  }
}

export type WebhooksService = ReturnType<typeof createWebhooksService>
