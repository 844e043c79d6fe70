import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_SCHEMAS, webhookEventSchema } from '../../src-shared/schemas/webhook-events'
import type { Delivery, DeliveryDetail, SecretShownOnce, SecretStatus } from '../../src-shared/schemas/webhooks'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { trpcHttp } from '../helpers/trpc-http'
import { independentlyVerified, type ReceiverBehaviour, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * Test-sends against receivers on loopback (issue 18, point 3): one answering 200, one 500 then
 * 200, one hanging past the timeout, one resetting the connection; each delivery's log read back
 * over REST. The retry schedule is shortened to [0, 50, 50] ms (three attempts); the tests wait on
 * the service's settled signal, never on a clock.
 */

let server: TestServer
let tenantId: string
let secret: string
const receivers: WebhookReceiver[] = []
const trpc = trpcHttp(() => server.url, () => 'test-admin-token')

beforeAll(async () => {
  server = await startTestServer({ service: { webhookRetrySchedule: [0, 50, 50] } })
  tenantId = server.sqlite
    .prepare("select tenant_id from calls where status = 'completed' and end_reason = 'transferred' group by tenant_id order by count(*) desc limit 1")
    .pluck()
    .get() as string
  // The tenant's timeout, 1 s, bounds the hanging receiver's attempt.
  server.sqlite.prepare('update tenants set webhook_timeout_seconds = 1 where id = ?').run(tenantId)
})
afterAll(async () => {
  for (const r of receivers) await r.close()
  await server.close()
})

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  server.get(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })

async function receiver(behave: (index: number) => ReceiverBehaviour) {
  const r = await startWebhookReceiver(behave)
  receivers.push(r)
  return r
}

/** Sends, waits for the delivery to settle (the service's signal), and reads its log over REST. */
async function sendAndSettle(body: Record<string, unknown>): Promise<DeliveryDetail> {
  const response = await post(`/tenants/${tenantId}/webhook-deliveries`, body)
  expect(response.status, await response.clone().text()).toBe(202)
  const delivery = (await response.json()) as Delivery
  await server.service.webhooks.whenSettled(delivery.id)
  return (await (await server.get(`/webhook-deliveries/${delivery.id}`)).json()) as DeliveryDetail
}

describe('webhook signing secret', () => {
  it('is made, shown once, stored sealed and told apart by a hint only', async () => {
    const before = (await (await server.get(`/tenants/${tenantId}/webhook-secret`)).json()) as SecretStatus
    expect(before).toEqual({ tenant_id: tenantId, configured: false, hint: null, created_at: null })
    const created = (await (await post(`/tenants/${tenantId}/webhook-secret`, {})).json()) as SecretShownOnce
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32)
    expect(created).toMatchObject({ configured: true, replaced: false, hint: `whsec_…${created.secret.slice(-4)}` })
    const status = await (await server.get(`/tenants/${tenantId}/webhook-secret`)).text()
    expect(status).not.toContain(created.secret.slice(6, 20))
    expect(JSON.parse(status)).toMatchObject({ configured: true, hint: created.hint })
    const stored = server.sqlite.prepare('select secret from webhook_secrets where tenant_id = ?').pluck().get(tenantId) as string
    expect(stored).toMatch(/^aesgcm1:/)
    expect(stored).not.toContain(created.secret.slice(6))
    secret = created.secret
  })

  it('rotates: a new secret, the old one replaced', async () => {
    const rotated = (await trpc.mutation<SecretShownOnce>('webhooks.setSecret', { tenantId })).secret
    expect(rotated).not.toBe(secret)
    const again = (await (await post(`/tenants/${tenantId}/webhook-secret`, {})).json()) as SecretShownOnce
    expect(again.replaced).toBe(true)
    secret = again.secret
  })

  it('sets a given secret (a backend\'s) and refuses one that is not a Standard Webhooks secret', async () => {
    const bad = await post(`/tenants/${tenantId}/webhook-secret`, { secret: 'hunter2' })
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(['body', 'secret'])
    const given = `whsec_${Buffer.alloc(24, 7).toString('base64')}`
    const set = (await (await post(`/tenants/${tenantId}/webhook-secret`, { secret: given })).json()) as SecretShownOnce
    expect(set.secret).toBe(given)
    const fresh = (await (await post(`/tenants/${tenantId}/webhook-secret`, {})).json()) as SecretShownOnce
    secret = fresh.secret
  })

  it('is for admins to change; a viewer sees the status, another tenant\'s token sees nothing', async () => {
    const viewer = await tokenFor(server, 'viewer')
    expect((await post(`/tenants/${tenantId}/webhook-secret`, {}, bearer(viewer))).status).toBe(403)
    expect((await server.get(`/tenants/${tenantId}/webhook-secret`, { headers: bearer(viewer) })).status).toBe(200)
    const other = server.sqlite.prepare('select id from tenants where id != ? limit 1').pluck().get(tenantId) as string
    const stranger = await tokenFor(server, 'tenant', other)
    expect((await server.get(`/tenants/${tenantId}/webhook-secret`, { headers: bearer(stranger) })).status).toBe(404)
  })
})

describe('test-send to receivers on loopback', () => {
  beforeAll(async () => {
    // Loopback is refused by default; these tests allow it explicitly, as a user would in Settings.
    await trpc.mutation('webhooks.setSettings', { allow_private_targets: true })
  })

  it('delivers to a receiver answering 200: one attempt logged, signed verifiably, built from a stored call', async () => {
    const r = await receiver(() => ({ status: 200, body: '{"ok":true}', headers: { 'x-receiver': 'one' } }))
    const d = await sendAndSettle({ event: 'call.ended', url: r.url })
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 1, last_status: 200, source: 'stored', event_type: 'call.ended', url: r.url })
    const [attempt] = d.attempts
    expect(attempt).toMatchObject({ number: 1, response_status: 200, response_excerpt: '{"ok":true}', response_truncated: false, error_kind: null, succeeded: true, address: '127.0.0.1', next_retry_at: null })
    expect(attempt!.response_headers).toMatchObject({ 'x-receiver': 'one', 'content-type': 'text/plain' })
    expect(attempt!.latency_ms).toBeGreaterThanOrEqual(0)
    // What the receiver got is what the log says was sent, and an independent HMAC accepts it.
    const [got] = await r.received(1)
    expect(got!.body).toBe(d.request_body)
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent']) expect(got!.headers[name]).toBe(attempt!.request_headers[name])
    expect(got!.headers['webhook-id']).toBe(d.webhook_id)
    expect(Math.abs(Number(got!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60)
    expect(independentlyVerified(secret, got!.headers, got!.body)).toBe(true)
    expect(independentlyVerified(secret, got!.headers, got!.body.replace('"call.ended"', '"call.failed"'))).toBe(false)
    // The event is the stored call's, in the catalog's shape.
    const event = WEBHOOK_EVENT_SCHEMAS['call.ended'].parse(JSON.parse(got!.body))
    const call = server.sqlite.prepare('select * from calls where id = ?').get(event.data.call_id) as Record<string, unknown>
    expect(call).toMatchObject({ tenant_id: tenantId, status: 'completed', from_number: event.data.from_number, ended_at: event.data.ended_at, duration_ms: event.data.duration_ms })
    expect(event.timestamp).toBe(call.ended_at)
    expect(d.call_id).toBe(call.id)
    const newest = server.sqlite.prepare("select id from calls where tenant_id = ? and status = 'completed' order by started_at desc limit 1").pluck().get(tenantId)
    expect(call.id).toBe(newest)
  })

  it('retries a 500 and succeeds on the 200 after it, under the same webhook-id', async () => {
    const r = await receiver((i) => (i === 0 ? { status: 500, body: 'database is locked' } : { status: 204 }))
    const d = await sendAndSettle({ event: 'transfer.completed', url: r.url })
    expect(d).toMatchObject({ status: 'succeeded', attempt_count: 2, last_status: 204 })
    expect(d.attempts.map((a) => [a.number, a.response_status, a.succeeded])).toEqual([[1, 500, false], [2, 204, true]])
    expect(d.attempts[0]!.response_excerpt).toBe('database is locked')
    expect(d.attempts[0]!.next_retry_at).not.toBeNull()
    const got = await r.received(2)
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id'])
    for (const g of got) expect(independentlyVerified(secret, g.headers, g.body)).toBe(true)
    const event = WEBHOOK_EVENT_SCHEMAS['transfer.completed'].parse(JSON.parse(got[0]!.body))
    const transfer = server.sqlite.prepare('select * from transfers where conversation_id = ? order by requested_at desc limit 1').get(event.data.session_id) as Record<string, unknown>
    expect(transfer).toMatchObject({ to_agent_id: event.data.to_agent_id, reason: event.data.reason, outcome: event.data.outcome, latency_ms: event.data.latency_ms })
  })

  it('gives up a receiver that hangs past the tenant\'s timeout, logging each attempt as a timeout', async () => {
    const r = await receiver(() => 'hang')
    const d = await sendAndSettle({ event: 'call.started', url: r.url })
    expect(d).toMatchObject({ status: 'failed', attempt_count: 3, last_status: null, last_error_kind: 'timeout' })
    for (const a of d.attempts) {
      expect(a).toMatchObject({ error_kind: 'timeout', response_status: null, succeeded: false, address: '127.0.0.1' })
      expect(a.error_message).toMatch(/no complete answer within 1 s/)
      expect(a.latency_ms).toBeGreaterThanOrEqual(950)
      expect(a.latency_ms).toBeLessThan(5000)
    }
    expect(d.attempts.at(-1)!.next_retry_at).toBeNull()
    expect(d.finished_at).not.toBeNull()
  })

  it('logs a reset connection as a reset, and succeeds on the retry', async () => {
    const r = await receiver((i) => (i === 0 ? 'reset' : { status: 200 }))
    const d = await sendAndSettle({ event: 'call.failed', url: r.url })
    expect(d.attempts.map((a) => [a.error_kind, a.response_status])).toEqual([['reset', null], [null, 200]])
    expect(d.attempts[0]!.error_message).toMatch(/reset/i)
    WEBHOOK_EVENT_SCHEMAS['call.failed'].parse(JSON.parse(d.request_body))
  })

  it('names a name that does not resolve (.invalid is reserved never to), retried like any failure', async () => {
    const d = await sendAndSettle({ event: 'call.started', url: 'http://hooks.nowhere.invalid/events' })
    expect(d.attempts.map((a) => a.error_kind)).toEqual(['dns', 'dns', 'dns'])
    expect(d.attempts[0]!.error_message).toMatch(/^DNS: hooks\.nowhere\.invalid could not be resolved \((ENOTFOUND|EAI_AGAIN)\)$/)
  })

  it('names a refused connection and keeps the excerpt of a large answer to 4 KiB', async () => {
    const closed = await receiver(() => ({ status: 200 }))
    await closed.close()
    const refused = await sendAndSettle({ event: 'session.ended', url: closed.url })
    expect(refused.attempts.map((a) => a.error_kind)).toEqual(['refused', 'refused', 'refused'])
    expect(refused.status).toBe('failed')
    const big = await receiver(() => ({ status: 200, body: 'é'.repeat(600_000) }))
    const d = await sendAndSettle({ event: 'recording.ready', url: big.url })
    expect(d.attempts[0], d.attempts[0]!.error_message!).toMatchObject({ response_status: 200, response_truncated: true })
    expect(Buffer.byteLength(d.attempts[0]!.response_excerpt!)).toBeLessThanOrEqual(4096 + 2)
    webhookEventSchema.parse(JSON.parse(d.request_body))
  })

  it('replays a delivery under its webhook-id, or a new one when asked', async () => {
    const r = await receiver(() => ({ status: 200 }))
    const first = await sendAndSettle({ event: 'call.started', url: r.url })
    const again = (await (await post(`/webhook-deliveries/${first.id}/replay`, {})).json()) as Delivery
    expect(again).toMatchObject({ replay_of: first.id, webhook_id: first.webhook_id, url: r.url })
    await server.service.webhooks.whenSettled(again.id)
    const renewed = (await (await post(`/webhook-deliveries/${first.id}/replay`, { new_id: true })).json()) as Delivery
    expect(renewed.webhook_id).not.toBe(first.webhook_id)
    await server.service.webhooks.whenSettled(renewed.id)
    const got = await r.received(3)
    expect(got.map((g) => g.body)).toEqual([first.request_body, first.request_body, first.request_body])
    const list = (await (await server.get(`/tenants/${tenantId}/webhook-deliveries?limit=2`)).json()) as { deliveries: Delivery[]; total: number }
    expect(list.deliveries.map((x) => x.id)).toEqual([renewed.id, again.id])
    expect(list.total).toBe(server.sqlite.prepare('select count(*) from webhook_deliveries where tenant_id = ?').pluck().get(tenantId))
  })
})

describe('where test-sends may go', () => {
  it('refuses loopback unless allowed, without retrying, and says how to allow it', async () => {
    await trpc.mutation('webhooks.setSettings', { allow_private_targets: false })
    try {
      const r = await receiver(() => ({ status: 200 }))
      const d = await sendAndSettle({ event: 'call.started', url: r.url.replace('127.0.0.1', 'localhost') })
      expect(d).toMatchObject({ status: 'failed', attempt_count: 1, last_error_kind: 'blocked' })
      expect(d.attempts[0]!.error_message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is a loopback, private or link-local address; allow private targets/)
      expect(d.attempts[0]!.address).toBeNull()
      expect(r.requests).toHaveLength(0)
      const literal = await sendAndSettle({ event: 'call.started', url: 'http://[::ffff:169.254.169.254]/latest/meta-data' })
      expect(literal.last_error_kind).toBe('blocked')
    } finally {
      await trpc.mutation('webhooks.setSettings', { allow_private_targets: true })
    }
  })

  it.each([
    [{ event: 'call.started', url: 'ftp://example.com/x' }, ['body', 'url']],
    [{ event: 'call.started', url: 'http://user:pw@example.com/x' }, ['body', 'url']],
    [{ event: 'call.exploded' }, ['body', 'event']],
  ])('refuses %j with a 422 at %j, changing nothing', async (body, loc) => {
    const before = server.sqlite.prepare('select count(*) from webhook_deliveries').pluck().get()
    const response = await post(`/tenants/${tenantId}/webhook-deliveries`, body)
    expect(response.status).toBe(422)
    expect(((await response.json()) as { detail: Array<{ loc: unknown[] }> }).detail[0]!.loc).toEqual(loc)
    expect(server.sqlite.prepare('select count(*) from webhook_deliveries').pluck().get()).toBe(before)
  })

  it('answers 400 for a tenant without a secret, a call of another tenant, or a call that cannot give the event', async () => {
    const other = server.sqlite.prepare('select id from tenants where id != ? and id not in (select tenant_id from webhook_secrets) limit 1').pluck().get(tenantId) as string
    const noSecret = await post(`/tenants/${other}/webhook-deliveries`, { event: 'call.started', url: 'https://example.com/h' })
    expect(noSecret.status).toBe(400)
    expect(((await noSecret.json()) as { detail: string }).detail).toMatch(/no webhook signing secret: create one first/)
    const foreignCall = server.sqlite.prepare('select id from calls where tenant_id = ? limit 1').pluck().get(other) as string
    const foreign = await post(`/tenants/${tenantId}/webhook-deliveries`, { event: 'call.started', url: 'https://example.com/h', call_id: foreignCall })
    expect(((await foreign.json()) as { detail: string }).detail).toBe(`call_id: call ${foreignCall} belongs to another tenant`)
    const completed = server.sqlite.prepare("select id from calls where tenant_id = ? and status = 'completed' limit 1").pluck().get(tenantId) as string
    const unfit = await post(`/tenants/${tenantId}/webhook-deliveries`, { event: 'call.failed', url: 'https://example.com/h', call_id: completed })
    expect(unfit.status).toBe(400)
    expect(((await unfit.json()) as { detail: string }).detail).toBe(`call_id: call ${completed} cannot give a call.failed event: it did not fail (status completed)`)
  })

  it('lets only admins send', async () => {
    const viewer = await tokenFor(server, 'viewer')
    expect((await post(`/tenants/${tenantId}/webhook-deliveries`, { event: 'call.started' }, bearer(viewer))).status).toBe(403)
    expect((await server.get(`/tenants/${tenantId}/webhook-deliveries`, { headers: bearer(viewer) })).status).toBe(200)
    expect((await fetch(`${server.url}/tenants/${tenantId}/webhook-deliveries`)).status).toBe(401)
  })
})

describe('the webhook tables', () => {
  it.each([
    ["select * from webhook_deliveries where tenant_id = 'x' order by created_at desc, id desc limit 50", 'webhook_deliveries_tenant_created'],
    ["select * from webhook_deliveries where call_id = 'x' order by created_at desc limit 50", 'webhook_deliveries_call'],
    ["select * from webhook_inbox where tenant_id = 'x' order by received_at desc, id desc limit 50", 'webhook_inbox_tenant_received'],
    ["select * from webhook_inbox where call_id = 'x' order by received_at limit 50", 'webhook_inbox_call'],
    ["select id from webhook_inbox where tenant_id = 'x' and webhook_id = 'y' and status = 'accepted'", 'webhook_inbox_accepted_id'],
  ])('%s reads %s without a sort', (query, index) => {
    const plan = (server.sqlite.prepare(`explain query plan ${query}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('\n')
    expect(plan).toContain(index)
    expect(plan).not.toContain('TEMP B-TREE')
  })
})
