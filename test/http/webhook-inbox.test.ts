import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Delivery, InboxEvent, SecretShownOnce } from '../../src-shared/schemas/webhooks'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { trpcHttp } from '../helpers/trpc-http'
import { independentlySigned } from '../helpers/webhook-receiver'

/*
 * The inbox (issue 18, point 4): events signed by an independent implementation (node:crypto
 * alone) are accepted and stored beside their call; forged, stale, unsigned and replayed ones are
 * refused with their reason, stored as rejected, and change nothing else.
 */

let server: TestServer
let tenantId: string
let callId: string
let secret: string
const trpc = trpcHttp(() => server.url, () => 'test-admin-token')

beforeAll(async () => {
  server = await startTestServer({ service: { webhookRetrySchedule: [0] } })
  ;({ tenant_id: tenantId, id: callId } = server.sqlite.prepare("select tenant_id, id from calls where status = 'completed' order by started_at desc limit 1").get() as { tenant_id: string; id: string })
  secret = ((await (await server.get(`/tenants/${tenantId}/webhook-secret`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as SecretShownOnce).secret
})
afterAll(() => server.close())

const now = () => Math.floor(Date.now() / 1000)
let counter = 0
const event = (type = 'call.ended') => JSON.stringify({ type, timestamp: new Date().toISOString(), data: { call_id: callId, tenant_id: tenantId, note: `n${counter++}` } })

/** POSTs to the inbox without a bearer token, as a backend would. */
const deliver = (body: string, headers: Record<string, string>, tenant = tenantId) =>
  fetch(`${server.url}/webhooks/inbox/${tenant}`, { method: 'POST', headers, body })

const inbox = async () => ((await (await server.get(`/tenants/${tenantId}/webhook-inbox?limit=200`)).json()) as { events: InboxEvent[]; total: number }).events

describe('POST /webhooks/inbox/{tenant_id}', () => {
  it('accepts an event signed by an independent implementation, without a bearer token, and stores it beside its call', async () => {
    const body = event()
    const id = `msg_${Date.now()}a`
    const response = await deliver(body, independentlySigned(secret, id, now(), body))
    expect(response.status).toBe(200)
    const answer = (await response.json()) as { id: string }
    expect(answer).toEqual({ status: 'accepted', id: expect.stringMatching(/^evt_/), webhook_id: id, event_type: 'call.ended', call_id: callId })
    const [stored] = await inbox()
    expect(stored).toMatchObject({ id: answer.id, status: 'accepted', reason: null, webhook_id: id, event_type: 'call.ended', call_id: callId, body, body_truncated: false, remote_address: '127.0.0.1' })
    expect(stored!.headers).toMatchObject({ 'webhook-id': id, 'content-type': 'application/json' })
    const forCall = await trpc.query<{ inbox: InboxEvent[] }>('webhooks.callEvents', { callId })
    expect(forCall.inbox.map((e) => e.id)).toContain(answer.id)
  })

  it('refuses a forged signature (401) and stores the refusal with its reason', async () => {
    const body = event()
    const headers = independentlySigned(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, 'msg_forged', now(), body)
    const response = await deliver(body, headers)
    expect(response.status).toBe(401)
    const { detail } = (await response.json()) as { detail: string }
    expect(detail).toMatch(/^Invalid webhook-signature: no v1 signature is the HMAC-SHA256 of "webhook-id.webhook-timestamp.body" under this tenant's secret \(whsec_…/)
    expect(detail).not.toContain(secret.slice(6, -4))
    const [stored] = await inbox()
    expect(stored).toMatchObject({ status: 'rejected', reason: detail, webhook_id: 'msg_forged', call_id: callId })
  })

  it('refuses a body changed after signing', async () => {
    const body = event()
    const headers = independentlySigned(secret, 'msg_tampered', now(), body)
    expect((await deliver(body.replace('call.ended', 'call.failed'), headers)).status).toBe(401)
  })

  it.each([
    // 599 to 601: the second the test signs in and the one the inbox checks in may differ.
    ['stale', -600, /^Stale or future webhook-timestamp: signed (599|60\d) s old, more than 300 s/],
    ['future', 600, /^Stale or future webhook-timestamp: signed (599|60\d) s in the future/],
  ])('refuses a %s timestamp even when the signature matches', async (_name, offset, message) => {
    const body = event()
    const response = await deliver(body, independentlySigned(secret, `msg_time${offset}`, now() + offset, body))
    expect(response.status).toBe(401)
    expect(((await response.json()) as { detail: string }).detail).toMatch(message)
  })

  it('refuses a replayed webhook-id (409) and keeps the first', async () => {
    const body = event()
    const headers = independentlySigned(secret, 'msg_once', now(), body)
    expect((await deliver(body, headers)).status).toBe(200)
    const again = await deliver(body, headers)
    expect(again.status).toBe(409)
    expect(((await again.json()) as { detail: string }).detail).toMatch(/^Replayed webhook-id: msg_once was already accepted at \d{4}-/)
    const sameId = (await inbox()).filter((e) => e.webhook_id === 'msg_once')
    expect(sameId.map((e) => e.status)).toEqual(['rejected', 'accepted'])
  })

  it('answers 422 in the spec\'s shape for missing and malformed headers', async () => {
    const response = await deliver(event(), { 'content-type': 'application/json', 'webhook-timestamp': 'yesterday' })
    expect(response.status).toBe(422)
    const { detail } = (await response.json()) as { detail: Array<{ loc: unknown[]; type: string }> }
    expect(detail.map((d) => [d.loc, d.type])).toEqual([
      [['header', 'webhook-id'], 'missing'],
      [['header', 'webhook-timestamp'], 'int_parsing'],
      [['header', 'webhook-signature'], 'missing'],
    ])
    expect((await inbox())[0]!.reason).toMatch(/^Missing or malformed Standard Webhooks headers \(webhook-id: Field required; /)
  })

  it('answers 422 for a correctly signed body that is not JSON', async () => {
    const response = await deliver('not json', independentlySigned(secret, 'msg_text', now(), 'not json'))
    expect(response.status).toBe(422)
    expect(((await response.json()) as { detail: Array<{ type: string }> }).detail[0]!.type).toBe('json_invalid')
  })

  it('reads the kind and call where other senders put them (Retell, Vapi)', async () => {
    const retell = JSON.stringify({ event: 'call_ended', call: { call_id: callId } })
    const vapi = JSON.stringify({ message: { type: 'end-of-call-report', call: { id: callId } } })
    for (const [i, body] of [retell, vapi].entries()) {
      const answer = (await (await deliver(body, independentlySigned(secret, `msg_other${i}`, now(), body))).json()) as { event_type: string; call_id: string }
      expect(answer).toMatchObject({ event_type: ['call_ended', 'end-of-call-report'][i], call_id: callId })
    }
  })

  it('answers 404 for an unknown tenant, 409 for one without a secret, 413 over 256 KiB, 422 for a bad id', async () => {
    const body = event()
    const headers = independentlySigned(secret, 'msg_x', now(), body)
    const unknown = await deliver(body, headers, '0b8c7a3e-0000-4000-8000-000000000000')
    expect([unknown.status, await unknown.json()]).toEqual([404, { detail: 'Tenant not found' }])
    const other = server.sqlite.prepare('select id from tenants where id != ? limit 1').pluck().get(tenantId) as string
    const noSecret = await deliver(body, headers, other)
    expect(noSecret.status).toBe(409)
    expect(((await noSecret.json()) as { detail: string }).detail).toMatch(/^This tenant has no webhook signing secret in Callscope yet/)
    const huge = JSON.stringify({ type: 'call.ended', pad: 'x'.repeat(300 * 1024) })
    expect((await deliver(huge, independentlySigned(secret, 'msg_big', now(), huge))).status).toBe(413)
    const badId = await deliver(body, headers, 'not-a-uuid')
    expect(badId.status).toBe(422)
    expect(((await badId.json()) as { detail: Array<{ loc: unknown[]; type: string }> }).detail[0]).toMatchObject({ loc: ['path', 'tenant_id'], type: 'uuid_parsing' })
  })

  it('is reachable under another Host name (a tunnel), which the rest of the API refuses', async () => {
    const body = event()
    const viaTunnel = { ...independentlySigned(secret, 'msg_tunnel', now(), body), host: 'abc123.tunnel.example' }
    const { request } = await import('node:http')
    const status = (path: string, method: string, payload?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}${path}`, { method, headers: viaTunnel }, (res) => {
          res.resume()
          resolve(res.statusCode!)
        })
        req.on('error', reject)
        req.end(payload)
      })
    expect(await status(`/webhooks/inbox/${tenantId}`, 'POST', body)).toBe(200)
    expect(await status(`/tenants/${tenantId}`, 'GET')).toBe(421)
  })

  it('keeps the inbox list to its tenant: another tenant\'s token sees nothing', async () => {
    const other = server.sqlite.prepare('select id from tenants where id != ? limit 1').pluck().get(tenantId) as string
    const token = await tokenFor(server, 'tenant', other)
    expect((await server.get(`/tenants/${tenantId}/webhook-inbox`, { headers: bearer(token) })).status).toBe(404)
    const own = await tokenFor(server, 'tenant', tenantId)
    expect((await server.get(`/tenants/${tenantId}/webhook-inbox`, { headers: bearer(own) })).status).toBe(200)
  })
})

describe('end to end: a test-send to this Callscope\'s own inbox', () => {
  it('is signed by Callscope, verified by the inbox, and stored beside the call it was built from', async () => {
    await trpc.mutation('webhooks.setSettings', { allow_private_targets: true })
    const sent = (await (await server.get(`/tenants/${tenantId}/webhook-deliveries`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'call.ended', url: `${server.url}/webhooks/inbox/${tenantId}`, call_id: callId }),
    })).json()) as Delivery
    await server.service.webhooks.whenSettled(sent.id)
    const detail = (await (await server.get(`/webhook-deliveries/${sent.id}`)).json()) as { status: string; attempts: Array<{ response_status: number; response_excerpt: string }> }
    expect(detail.status).toBe('succeeded')
    expect(JSON.parse(detail.attempts[0]!.response_excerpt)).toMatchObject({ status: 'accepted', webhook_id: sent.webhook_id, call_id: callId, event_type: 'call.ended' })
    const events = await trpc.query<{ deliveries: Delivery[]; inbox: InboxEvent[] }>('webhooks.callEvents', { callId })
    expect(events.deliveries.map((d) => d.id)).toContain(sent.id)
    expect(events.inbox.find((e) => e.webhook_id === sent.webhook_id)).toMatchObject({ status: 'accepted', event_type: 'call.ended' })
    // A redelivery under the same id is refused by the inbox's replay protection, and logged as a 409.
    const replay = (await (await server.get(`/webhook-deliveries/${sent.id}/replay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as Delivery
    await server.service.webhooks.whenSettled(replay.id)
    const replayed = (await (await server.get(`/webhook-deliveries/${replay.id}`)).json()) as { status: string; attempts: Array<{ response_status: number }> }
    expect(replayed).toMatchObject({ status: 'failed', attempts: [{ response_status: 409 }] })
  })
})
