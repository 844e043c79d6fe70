import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_KINDS } from '../../src-shared/schemas/webhook-events'
import type { DeliveryDetail } from '../../src-shared/schemas/webhooks'
import { startTestServer, type TestServer } from '../helpers/test-server'
import { independentlySigned, independentlyVerified, type ReceiverBehaviour, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * Webhooks on PostgreSQL (issue 20 pt 1): the signing secret, test-sends to local receivers with
 * their retries and logs, replays, the settings and the inbox, done alike on a SQLite and a
 * PostgreSQL store holding the same demo rows. Each answer (REST and the console's tRPC) must be
 * the same on both once what differs between any two runs is put aside: ids drawn at random
 * (replaced by their order of appearance, so a replay still names its original), instants of
 * now, latencies, signatures, and the receivers' ports. The events built from stored calls, and
 * so the bodies the receivers get, must be the same bytes.
 */

let sqlite: TestServer
let postgres: TestServer
let tenantId = ''
let otherTenantId = ''
/** A completed call of the tenant that was transferred: gives every kind of event. */
let callId = ''
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
const receivers: WebhookReceiver[] = []
type Store = 'sqlite' | 'postgres'
const server = (store: Store) => (store === 'sqlite' ? sqlite : postgres)
const STORES: Store[] = ['sqlite', 'postgres']

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([
    startTestServer({ service: { webhookRetrySchedule: [0, 50, 50] } }),
    startTestServer({ store: 'postgres', service: { webhookRetrySchedule: [0, 50, 50] } }),
  ])
  const db = sqlite.service.db
  const call = await db
    .selectFrom('calls')
    .select(['id', 'tenant_id'])
    .where('status', '=', 'completed')
    .where('end_reason', '=', 'transferred')
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
  ;({ id: callId, tenant_id: tenantId } = call)
  otherTenantId = (await db.selectFrom('tenants').select('id').where('id', '<>', tenantId).orderBy('id').executeTakeFirstOrThrow()).id
  // The tenant's timeout, 1 s, bounds the hanging receiver's attempts.
  for (const s of [sqlite, postgres]) await s.service.db.updateTable('tenants').set({ webhook_timeout_seconds: 1 }).where('id', '=', tenantId).execute()
})

afterAll(async () => {
  for (const r of receivers) await r.close()
  await Promise.all([sqlite?.close(), postgres?.close()])
})

/** Per store: each random id seen, by its order of first appearance. */
const labels: Record<Store, Map<string, string>> = { sqlite: new Map(), postgres: new Map() }
/** Per store: each receiver's address, by the scenario's name. */
const addresses: Record<Store, Map<string, string>> = { sqlite: new Map(), postgres: new Map() }
const RANDOM_ID = /^(dlv|evt|msg)_[0-9a-f]{32}$/
const ISO_INSTANT = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/
const ISO_INSTANT_G = new RegExp(ISO_INSTANT.source, 'g')
/** Fields that say when or how fast, which differ between any two runs. */
const VOLATILE = new Set(['created_at', 'updated_at', 'finished_at', 'received_at', 'started_at', 'next_attempt_at', 'next_retry_at', 'latency_ms', 'webhook-timestamp', 'webhook-signature', 'date'])

/** The answer with what differs between any two runs replaced (see the file's comment). */
function normal(store: Store, value: unknown): unknown {
  let text = JSON.stringify(value)
  for (const [name, url] of addresses[store]) text = text.replaceAll(url, `<${name}>`)
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string' && ISO_INSTANT.test(v)) {
      // Instants of now inside a message ("already accepted at …"); stored instants stay.
      return v.replace(ISO_INSTANT_G, (at) => (Math.abs(Date.parse(at) - Date.now()) < 3_600_000 ? '(now)' : at))
    }
    if (typeof v === 'string' && RANDOM_ID.test(v)) {
      const seen = labels[store]
      if (!seen.has(v)) seen.set(v, `${v.slice(0, 3)}#${seen.size + 1}`)
      return seen.get(v)
    }
    if (Array.isArray(v)) return v.map(walk)
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, VOLATILE.has(k) && x !== null ? '(volatile)' : walk(x)]))
    return v
  }
  return walk(JSON.parse(text))
}

interface Answer {
  status: number
  body: unknown
}

/** A request to one store's listener as the admin; the body parsed. */
async function request(store: Store, path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } }
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body)
  const response = await server(store).get(path, init)
  const text = await response.text()
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null }
}

/** The same request to both stores, one after the other; the answers must be alike. Returns both. */
async function same(path: string, method = 'GET', body?: unknown, headers?: Record<string, string>): Promise<Record<Store, Answer>> {
  const answers = {} as Record<Store, Answer>
  for (const store of STORES) answers[store] = await request(store, path, method, body, headers)
  const [a, b] = STORES.map((store) => ({ path, status: answers[store].status, body: normal(store, answers[store].body) }))
  expect(b).toEqual(a)
  return answers
}

/** A tRPC query of the console on both stores, alike; returns SQLite's data. */
async function sameTrpc<T>(procedure: string, input?: unknown): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
  const answers = await same(`/trpc/${procedure}${query}`)
  expect(answers.sqlite.status, JSON.stringify(answers.sqlite.body).slice(0, 300)).toBe(200)
  return (answers.sqlite.body as { result: { data: T } }).result.data
}

/** Until the clock has moved on a millisecond: lists ordered by an instant then a random id stay in one order. */
async function nextMillisecond(): Promise<void> {
  const start = Date.now()
  while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve))
}

/** A receiver per store for a scenario, each behaving as `behave` says for its own requests. */
async function receiversFor(name: string, behave: (index: number) => ReceiverBehaviour): Promise<Record<Store, WebhookReceiver>> {
  const pair = {} as Record<Store, WebhookReceiver>
  for (const store of STORES) {
    pair[store] = await startWebhookReceiver(behave)
    receivers.push(pair[store])
    addresses[store].set(name, pair[store].url)
  }
  return pair
}

/** A test-send on both stores to the scenario's receivers, settled; the deliveries' logs compared. */
async function sendOnBoth(name: string, body: Record<string, unknown>, behave: (index: number) => ReceiverBehaviour): Promise<{ detail: DeliveryDetail; received: Record<Store, WebhookReceiver> }> {
  const pair = await receiversFor(name, behave)
  const details = {} as Record<Store, DeliveryDetail>
  for (const store of STORES) {
    const sent = await request(store, `/tenants/${tenantId}/webhook-deliveries`, 'POST', { ...body, url: pair[store].url })
    expect(sent.status, JSON.stringify(sent.body)).toBe(202)
    const id = (sent.body as { id: string }).id
    await server(store).service.webhooks.whenSettled(id)
    details[store] = (await request(store, `/webhook-deliveries/${id}`)).body as DeliveryDetail
    await nextMillisecond()
  }
  expect({ name, ...(normal('postgres', details.postgres) as object) }).toEqual({ name, ...(normal('sqlite', details.sqlite) as object) })
  // The receivers got the same bodies, signed under the tenant's secret on both.
  expect(pair.postgres.requests.map((r) => r.body)).toEqual(pair.sqlite.requests.map((r) => r.body))
  for (const store of STORES) for (const r of pair[store].requests) expect(independentlyVerified(SECRET, r.headers, r.body)).toBe(true)
  return { detail: details.sqlite, received: pair }
}

describe('webhooks on SQLite and PostgreSQL', { timeout: 120_000 }, () => {
  it('the signing secret: none, set, rotated back; the same status and hint', async () => {
    expect((await same(`/tenants/${tenantId}/webhook-secret`)).sqlite.body).toMatchObject({ configured: false })
    const set = await same(`/tenants/${tenantId}/webhook-secret`, 'POST', { secret: SECRET })
    expect(set.sqlite.body).toMatchObject({ configured: true, replaced: false, secret: SECRET, hint: `whsec_…${SECRET.slice(-4)}` })
    // A new one replaces it; the given one again replaces that.
    expect((await request('sqlite', `/tenants/${tenantId}/webhook-secret`, 'POST', {})).status).toBe(200)
    expect((await request('postgres', `/tenants/${tenantId}/webhook-secret`, 'POST', {})).status).toBe(200)
    expect((await same(`/tenants/${tenantId}/webhook-secret`, 'POST', { secret: SECRET })).sqlite.body).toMatchObject({ replaced: true })
    expect(await sameTrpc('webhooks.secret', { tenantId })).toMatchObject({ configured: true, hint: `whsec_…${SECRET.slice(-4)}` })
    // Bad input alike: not a Standard Webhooks secret, an unknown tenant.
    expect((await same(`/tenants/${tenantId}/webhook-secret`, 'POST', { secret: 'plain' })).sqlite.status).toBe(422)
    expect((await same('/tenants/0b8c7a3e-0000-4000-8000-000000000000/webhook-secret')).sqlite.status).toBe(404)
  })

  it('the settings: loopback targets refused by default, then allowed, stored alike', async () => {
    expect(await sameTrpc('webhooks.settings')).toEqual({ allow_private_targets: false })
    const refused = await sendOnBoth('refused', { event: 'call.started' }, () => ({ status: 200 }))
    expect(refused.detail).toMatchObject({ status: 'failed', attempt_count: 1, last_error_kind: 'blocked' })
    for (const store of STORES) await server(store).service.webhooks.setSettings({ role: 'admin', tenantId: null, tokenId: null }, { allow_private_targets: true })
    expect(await sameTrpc('webhooks.settings')).toEqual({ allow_private_targets: true })
  })

  it('test-sends of every kind, built from the same stored call, delivered and logged alike', async () => {
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const { detail, received } = await sendOnBoth(`ok-${kind}`, { event: kind }, () => ({ status: 200, body: '{"ok":true}' }))
      expect(detail).toMatchObject({ status: 'succeeded', attempt_count: 1, event_type: kind, source: 'stored' })
      expect(received.sqlite.requests).toHaveLength(1)
    }
    const chosen = await sendOnBoth('ok-call', { event: 'call.ended', call_id: callId }, () => ({ status: 204 }))
    expect(chosen.detail).toMatchObject({ status: 'succeeded', call_id: callId })
  })

  it('retries, timeouts and resets: the same attempts logged with the same outcomes', async () => {
    const flaky = await sendOnBoth('flaky', { event: 'transfer.completed' }, (i) => (i === 0 ? { status: 500, body: 'database is locked' } : { status: 204 }))
    expect(flaky.detail.attempts.map((a) => [a.number, a.response_status, a.succeeded])).toEqual([[1, 500, false], [2, 204, true]])
    const reset = await sendOnBoth('reset', { event: 'call.ended' }, (i) => (i === 0 ? 'reset' : { status: 200 }))
    expect(reset.detail.attempts.map((a) => a.error_kind)).toEqual(['reset', null])
    const hang = await sendOnBoth('hang', { event: 'call.failed' }, () => 'hang')
    expect(hang.detail).toMatchObject({ status: 'failed', attempt_count: 3, last_error_kind: 'timeout' })
  })

  it('replays under the same webhook-id or a new one; the lists and the call\'s events alike', async () => {
    const { detail } = await sendOnBoth('replayed', { event: 'call.ended', call_id: callId }, () => ({ status: 200 }))
    const originals = {} as Record<Store, string>
    for (const store of STORES) {
      const list = (await request(store, `/tenants/${tenantId}/webhook-deliveries?limit=1`)).body as { deliveries: Array<{ id: string }> }
      originals[store] = list.deliveries[0]!.id
    }
    for (const body of [{}, { new_id: true }]) {
      const details = {} as Record<Store, unknown>
      for (const store of STORES) {
        const replayed = await request(store, `/webhook-deliveries/${originals[store]}/replay`, 'POST', body)
        expect(replayed.status).toBe(202)
        const id = (replayed.body as { id: string }).id
        await server(store).service.webhooks.whenSettled(id)
        details[store] = (await request(store, `/webhook-deliveries/${id}`)).body
        await nextMillisecond()
      }
      expect(normal('postgres', details.postgres)).toEqual(normal('sqlite', details.sqlite))
      expect(details.sqlite).toMatchObject({ status: 'succeeded', replay_of: originals.sqlite, request_body: detail.request_body })
    }
    const all = await same(`/tenants/${tenantId}/webhook-deliveries?limit=100`)
    expect((all.sqlite.body as { total: number }).total).toBeGreaterThan(12)
    await same(`/tenants/${tenantId}/webhook-deliveries?limit=3`)
    await sameTrpc('webhooks.deliveries', { tenantId, limit: 5 })
    const events = await sameTrpc<{ deliveries: unknown[] }>('webhooks.callEvents', { callId })
    expect(events.deliveries.length).toBeGreaterThanOrEqual(4)
    // Unknown deliveries, a tenant without a secret, a call of another tenant: the same refusals.
    expect((await same('/webhook-deliveries/dlv_nosuch')).sqlite.status).toBe(404)
    expect((await same(`/tenants/${otherTenantId}/webhook-deliveries`, 'POST', { event: 'call.ended', url: 'https://example.com/hook' })).sqlite.status).toBe(400)
    const foreign = await sqlite.service.db.selectFrom('calls').select('id').where('tenant_id', '=', otherTenantId).limit(1).executeTakeFirstOrThrow()
    expect((await same(`/tenants/${tenantId}/webhook-deliveries`, 'POST', { event: 'call.ended', url: 'https://example.com/hook', call_id: foreign.id })).sqlite.status).toBe(400)
  })

  it('the inbox: accepted, replayed, forged, stale, unsigned and non-JSON requests answered and stored alike', async () => {
    const now = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({ type: 'call.ended', timestamp: '2026-11-20T10:00:00.000Z', data: { call_id: callId, tenant_id: tenantId } })
    const inbox = `/webhooks/inbox/${tenantId}`
    const send = async (payload: string, headers: Record<string, string>) => {
      const answers = await same(inbox, 'POST', payload, headers)
      await nextMillisecond()
      return answers.sqlite
    }
    expect(await send(body, independentlySigned(SECRET, 'msg_parity_1', now, body))).toMatchObject({ status: 200, body: { status: 'accepted', call_id: callId } })
    expect((await send(body, independentlySigned(SECRET, 'msg_parity_1', now, body))).status).toBe(409)
    expect((await send(body.replace('ended', 'failed'), independentlySigned(SECRET, 'msg_parity_2', now, body))).status).toBe(401)
    expect((await send(body, independentlySigned(SECRET, 'msg_parity_3', now - 3600, body))).status).toBe(401)
    expect((await send(body, { 'content-type': 'application/json' })).status).toBe(422)
    expect((await send('not json', independentlySigned(SECRET, 'msg_parity_4', now, 'not json'))).status).toBe(422)
    const retell = JSON.stringify({ event: 'call_ended', call: { call_id: 'retell-call-1' } })
    expect(await send(retell, independentlySigned(SECRET, 'msg_parity_5', now, retell))).toMatchObject({ status: 200, body: { event_type: 'call_ended', call_id: 'retell-call-1' } })
    expect((await same('/webhooks/inbox/0b8c7a3e-0000-4000-8000-000000000000', 'POST', body, independentlySigned(SECRET, 'msg_parity_6', now, body))).sqlite.status).toBe(404)
    const stored = await same(`/tenants/${tenantId}/webhook-inbox?limit=50`)
    expect(stored.sqlite.body).toMatchObject({ total: 7 })
    await sameTrpc('webhooks.inbox', { tenantId, limit: 3 })
    const events = await sameTrpc<{ inbox: unknown[] }>('webhooks.callEvents', { callId })
    // Every request that named the call, accepted or not (the unsigned and the replayed too), but not Retell's.
    expect(events.inbox).toHaveLength(5)
  })

  it('the inbox: the same webhook-id arriving many times at once is accepted once, the rest refused as replays', async () => {
    const now = Math.floor(Date.now() / 1000)
    const body = JSON.stringify({ type: 'call.started', data: { call_id: callId } })
    const headers = independentlySigned(SECRET, 'msg_parity_race', now, body)
    for (const store of STORES) {
      // In process, so that all eight pass the "accepted before?" read before any of them writes:
      // the store's unique index decides, and its refusal must read as a replay on either store.
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => server(store).service.webhooks.receive({ tenantId, body, headers, remoteAddress: '127.0.0.1' }).then((a) => a, (error: Error) => ({ status: `threw ${error.message}` }))),
      )
      const statuses = answers.map((a) => a.status).sort()
      expect({ store, statuses }).toEqual({ store, statuses: [200, 409, 409, 409, 409, 409, 409, 409] })
      const accepted = await server(store).service.db.selectFrom('webhook_inbox').select('id').where('webhook_id', '=', 'msg_parity_race').where('status', '=', 'accepted').execute()
      expect(accepted).toHaveLength(1)
    }
  })
})
