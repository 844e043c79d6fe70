import { existsSync } from 'node:fs'
import { createServer } from 'node:http'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Delivery, DeliveryDetail, SecretShownOnce } from '../../src-shared/schemas/webhooks'
import { listenOnLoopback } from '../helpers/loopback-server'
import { canMountSmallDisk, type SmallDisk, smallDisk } from '../helpers/small-disk'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { independentlySigned } from '../helpers/webhook-receiver'

/*
 * Issue 36, point 1: a full disk on the writes `serve` takes besides imports and pulls (saved
 * views, tokens, webhook settings and secrets, the inbox, webhook deliveries). The store lives on a
 * tmpfs of its own; before each refused write its WAL is truncated and the disk filled to the last
 * byte, so the write must append a WAL frame (4 KiB and more) that cannot fit: it fails for real
 * (SQLITE_FULL, or ENOSPC for the key file), never by luck. Each case checks the answer (507 over
 * REST, SERVICE_UNAVAILABLE over tRPC, one message naming the operation, the store and the room),
 * the rows (those after equal those before), a read answering 200 meanwhile, and the same request
 * succeeding once room is made, stored once.
 */

const TENANT = '10000000-0000-4000-8000-000000000001'
const disk: SmallDisk | null = canMountSmallDisk ? smallDisk(16 * 1024 * 1024) : null
let server: TestServer
let viewer: string

beforeAll(async () => {
  server = await startTestServer({ seed: false, dbPath: join(disk!.dir, 'store.sqlite'), service: { webhookRetrySchedule: [0] } })
  server.sqlite.prepare(`insert into tenants (id, name, billing_plan, meta_data, created_at, updated_at) values (?, 'Acme', 'pro', '{}', 't', 't')`).run(TENANT)
  viewer = await tokenFor(server, 'viewer')
})
afterAll(() => server?.close())

/** The disk full to the last byte, with the WAL emptied first so that the next write must grow it. */
function fillDisk(): void {
  server.sqlite.pragma('wal_checkpoint(TRUNCATE)')
  disk!.fill(0)
}

const rowsOf = (table: string) => server.sqlite.prepare(`select * from ${table} order by rowid`).all()

/** The one message a full disk gives, naming the operation, the store and the room left. */
const fullMessage = (what: string) =>
  new RegExp(`^${what} failed: the disk holding the store is full \\(${server.dbPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}; 0 bytes free\\)\\. .*Make room on that disk, then run it again`)

const rest = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const response = await server.get(path, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const trpc = async (path: string, input: unknown) => {
  const response = await server.get(`/trpc/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) })
  const body = (await response.json()) as { result?: { data: unknown }; error?: { message: string; data: { code: string } } }
  return { status: response.status, data: body.result?.data, error: body.error ? { message: body.error.message, code: body.error.data.code } : null }
}

/** A read with a stored viewer token: answers while writes are refused (its last-use stamp is a write it skips). */
async function expectReadsServed(): Promise<void> {
  const read = await server.get('/views', { headers: bearer(viewer) })
  expect(read.status).toBe(200)
  expect(((await read.json()) as { views: unknown[] }).views).toHaveLength((rowsOf('saved_views') as unknown[]).length)
}

describe.skipIf(!canMountSmallDisk)('a full disk under serve', () => {
  it('saved views: POST /views answers 507 and tRPC SERVICE_UNAVAILABLE, nothing stored; once room is made, each saves once', async () => {
    const before = rowsOf('saved_views')
    fillDisk()
    const refused = await rest('POST', '/views', { name: 'Timeouts', state: { query: 'timeout' } })
    expect(refused).toEqual({ status: 507, body: { detail: expect.stringMatching(fullMessage('Saving the view')) } })
    const overTrpc = await trpc('savedViews.create', { name: 'Errors', state: { level: ['error'] } })
    expect(overTrpc.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(fullMessage('Saving the view')) })
    expect(rowsOf('saved_views')).toEqual(before)
    await expectReadsServed()

    disk!.makeRoom()
    expect((await rest('POST', '/views', { name: 'Timeouts', state: { query: 'timeout' } })).status).toBe(201)
    expect((await trpc('savedViews.create', { name: 'Errors', state: { level: ['error'] } })).error).toBeNull()
    expect((rowsOf('saved_views') as Array<{ name: string }>).map((r) => r.name)).toEqual([...(before as Array<{ name: string }>).map((r) => r.name), 'Timeouts', 'Errors'])
  })

  it('saved views: a change and a delete on a full disk answer 507 and leave the row as it was', async () => {
    const [view] = rowsOf('saved_views') as Array<{ id: string; name: string }>
    const before = rowsOf('saved_views')
    fillDisk()
    expect(await rest('PATCH', `/views/${view!.id}`, { name: 'Renamed' })).toEqual({ status: 507, body: { detail: expect.stringMatching(fullMessage('Changing the view')) } })
    expect(rowsOf('saved_views')).toEqual(before)
    const deleted = await server.get(`/views/${view!.id}`, { method: 'DELETE' })
    expect(deleted.status).toBe(507)
    expect(((await deleted.json()) as { detail: string }).detail).toMatch(fullMessage('Deleting the view'))
    expect(rowsOf('saved_views')).toEqual(before)
    await expectReadsServed()

    disk!.makeRoom()
    expect((await server.get(`/views/${view!.id}`, { method: 'DELETE' })).status).toBe(204)
    expect(rowsOf('saved_views')).toEqual((before as Array<{ id: string }>).filter((r) => r.id !== view!.id))
  })

  it('tokens over tRPC: create and revoke answer SERVICE_UNAVAILABLE without the secret or its hash; once room is made, each happens once', async () => {
    const before = rowsOf('api_tokens')
    const [existing] = before as Array<{ id: string; name: string }>
    fillDisk()
    const created = await trpc('tokens.create', { name: 'ci', role: 'viewer' })
    expect(created.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(fullMessage('Creating the token "ci"')) })
    expect(created.error!.message).not.toMatch(/cs_[A-Za-z0-9_-]{8,}|[0-9a-f]{64}/)
    const revoked = await trpc('tokens.revoke', { id: existing!.id })
    expect(revoked.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(fullMessage(`Revoking the token "${existing!.name}" \\(id ${existing!.id}\\)`)) })
    expect(rowsOf('api_tokens')).toEqual(before)
    await expectReadsServed()

    disk!.makeRoom()
    const again = await trpc('tokens.create', { name: 'ci', role: 'viewer' })
    expect(again.data).toMatchObject({ token: expect.stringMatching(/^cs_/), record: { name: 'ci' } })
    expect((rowsOf('api_tokens') as Array<{ name: string }>).filter((r) => r.name === 'ci')).toHaveLength(1)
    expect((await trpc('tokens.revoke', { id: existing!.id })).data).toMatchObject({ status: 'revoked' })
    // The viewer token revoked: reads with it now stop, as they should.
    expect((await server.get('/views', { headers: bearer(viewer) })).status).toBe(401)
    viewer = await tokenFor(server, 'viewer')
  })

  it('webhook settings over tRPC: SERVICE_UNAVAILABLE, the setting unchanged; once room is made, it is saved', async () => {
    const before = rowsOf('settings')
    fillDisk()
    const refused = await trpc('webhooks.setSettings', { allow_private_targets: true })
    expect(refused.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(fullMessage('Saving the webhook settings')) })
    expect(rowsOf('settings')).toEqual(before)
    await expectReadsServed()

    disk!.makeRoom()
    expect((await trpc('webhooks.setSettings', { allow_private_targets: true })).error).toBeNull()
    expect(server.sqlite.prepare("select value from settings where key = 'webhooks.allow_private_targets'").all()).toEqual([{ value: 'true' }])
  })

  it('a webhook signing secret: the key file that seals it cannot be written (ENOSPC) → 507 naming that file, no empty key file left; then the secret is stored', async () => {
    const keyFile = `${server.dbPath}.key`
    expect(existsSync(keyFile)).toBe(false)
    fillDisk()
    const refused = await rest('POST', `/tenants/${TENANT}/webhook-secret`, {})
    expect(refused.status).toBe(507)
    expect(refused.body.detail).toMatch(/^Creating the key file that seals secrets failed: the disk holding the store is full \(.*store\.sqlite\.key; 0 bytes free\)/)
    expect(existsSync(keyFile)).toBe(false)
    expect(rowsOf('webhook_secrets')).toEqual([])

    disk!.makeRoom()
    const stored = await rest('POST', `/tenants/${TENANT}/webhook-secret`, {})
    expect(stored.status).toBe(200)
    expect(rowsOf('webhook_secrets')).toHaveLength(1)
  })

  it('the inbox: an event (signed, or forged) on a full disk answers 507 and is not stored; the sender’s retry is then accepted once', async () => {
    const secret = ((await rest('POST', `/tenants/${TENANT}/webhook-secret`, {})).body as unknown as SecretShownOnce).secret
    const body = JSON.stringify({ type: 'call.ended', data: { call_id: 'call-1' } })
    const headers = independentlySigned(secret, 'msg_full_1', Math.floor(Date.now() / 1000), body)
    const post = (h: Record<string, string>) => fetch(`${server.url}/webhooks/inbox/${TENANT}`, { method: 'POST', headers: h, body })
    const before = rowsOf('webhook_inbox')
    fillDisk()
    const refused = await post(headers)
    expect(refused.status).toBe(507)
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^Storing the received webhook event failed: the disk holding the store is full .* It was not stored: the sender may retry it\. /)
    const forged = await post(independentlySigned(`whsec_${Buffer.alloc(32, 1).toString('base64')}`, 'msg_forged', Math.floor(Date.now() / 1000), body))
    expect(forged.status).toBe(507)
    expect(rowsOf('webhook_inbox')).toEqual(before)
    expect((await server.get(`/tenants/${TENANT}/webhook-inbox`, { headers: bearer(viewer) })).status).toBe(200)

    disk!.makeRoom()
    const accepted = await post(headers)
    expect(accepted.status).toBe(200)
    expect(await accepted.json()).toMatchObject({ status: 'accepted', webhook_id: 'msg_full_1' })
    expect(rowsOf('webhook_inbox')).toEqual([...before, expect.objectContaining({ status: 'accepted', webhook_id: 'msg_full_1' })])
  })

  it('a test send on a full disk answers 507 and sends nothing; an attempt made while the disk fills is kept and logged once room is made, sent once', async () => {
    let answer!: () => void
    const answered = new Promise<void>((resolve) => (answer = resolve))
    let arrived!: () => void
    const arrival = new Promise<void>((resolve) => (arrived = resolve))
    const received: string[] = []
    const receiver = await listenOnLoopback(
      createServer((req, res) => {
        let text = ''
        req.on('data', (c: Buffer) => (text += c))
        req.on('end', () => {
          received.push(text)
          arrived()
          void answered.then(() => res.writeHead(200).end('ok'))
        })
      }),
    )
    try {
      const url = `${receiver.url}/hooks`
      const before = rowsOf('webhook_deliveries')
      fillDisk()
      const refused = await rest('POST', `/tenants/${TENANT}/webhook-deliveries`, { event: 'call.started', url })
      expect(refused).toEqual({ status: 507, body: { detail: expect.stringMatching(/^Logging the webhook delivery failed: the disk holding the store is full .* Nothing was sent\. /) } })
      expect(rowsOf('webhook_deliveries')).toEqual(before)
      expect(received).toEqual([])
      disk!.makeRoom()

      // Sent with room; the disk fills while the receiver takes its time to answer.
      const started = await rest('POST', `/tenants/${TENANT}/webhook-deliveries`, { event: 'call.started', url })
      expect(started.status).toBe(202)
      const id = (started.body as unknown as Delivery).id
      await arrival
      fillDisk()
      answer()
      // The attempt cannot be logged: the delivery stays pending, readable, the event in memory.
      await expect.poll(() => server.service.handle.health.writeFault?.message ?? '').toMatch(/disk holding the store is full/)
      const pending = await rest('GET', `/webhook-deliveries/${id}`, undefined, bearer(viewer))
      expect(pending.status).toBe(200)
      expect(pending.body).toMatchObject({ status: 'pending', attempts: [] })

      disk!.makeRoom()
      await server.service.webhooks.whenSettled(id)
      const detail = (await rest('GET', `/webhook-deliveries/${id}`)).body as unknown as DeliveryDetail
      expect(detail).toMatchObject({ status: 'succeeded', attempt_count: 1 })
      expect(detail.attempts).toEqual([expect.objectContaining({ number: 1, response_status: 200, succeeded: true })])
      expect(received).toHaveLength(1)
      expect(server.sqlite.prepare('select count(*) as n from webhook_attempts where delivery_id = ?').get(id)).toEqual({ n: 1 })
    } finally {
      answer()
      disk!.makeRoom()
      await receiver.close()
    }
  })
})
