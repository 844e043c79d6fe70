import { SIPInboundTrunkInfo, TokenVerifier } from 'livekit-server-sdk'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sipTrunkListSchema } from '../../../src-shared/schemas/sip-trunk'
import { closedPortUrl, json, startTwirpServer } from '../../../test/helpers/livekit-twirp'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { fullTrunk, IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { createCallerFactory } from '../../kit/trpc'
import type { Principal } from '../../kit/access'
import { resolveLiveKitConfig } from './livekit-source'
import { sipTrunksRouter } from './sip-trunks.router'
import { createSipTrunksService, fromLiveKit, metadataTenantId, parseMetadata, type SipTrunksServiceOptions } from './sip-trunks.service'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantOne: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const tenantTwo: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k2' }
const KEY = 'APIdevkey'
const SECRET = 'a-secret-that-is-long-enough-for-hs256-signing'
const PATH = '/twirp/livekit.SIP/ListSIPInboundTrunk'
const FIXED = new Date('2026-11-20T12:00:00.000Z')

/** LiveKit's Go Twirp server answers JSON with proto (snake_case) field names. */
const liveItems: Array<Record<string, string | string[] | boolean>> = [
  {
    sip_trunk_id: 'ST_live_b',
    name: 'Zeta line',
    metadata: JSON.stringify({ tenant_id: IDS.otherTenant, carrier: 'Twilio' }),
    numbers: ['+4930123'],
    allowed_addresses: [],
    allowed_numbers: ['+49*'],
    auth_username: 'zeta',
    auth_password: 'hunter2-super-secret',
    krisp_enabled: true,
    created_at: '2026-10-01T08:00:00Z',
    updated_at: '2026-10-02T08:00:00.500Z',
  },
  { sip_trunk_id: 'ST_live_a', name: 'Alpha line', metadata: 'plain words', numbers: ['+15550100'], allowed_addresses: ['198.51.100.7'] },
  { sip_trunk_id: 'ST_test', name: 'Alpha line', numbers: ['+15550199'], auth_password: 'pw-only' },
]

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
})
afterEach(async () => {
  await handle.close()
})

const service = (o: SipTrunksServiceOptions = {}) => createSipTrunksService(handle.db, { env: {}, now: () => FIXED, ...o })
const live = (url: string, o: SipTrunksServiceOptions = {}) => service({ livekit: { url, apiKey: KEY, apiSecret: SECRET }, timeoutMs: 1000, ...o })

describe('mapping', () => {
  it("maps LiveKit's SIPInboundTrunkInfo without ever carrying the password", () => {
    const info = SIPInboundTrunkInfo.fromJson(liveItems[0]!)
    const trunk = fromLiveKit(info, 'tenant-x')
    expect(trunk).toEqual({
      sip_trunk_id: 'ST_live_b',
      name: 'Zeta line',
      tenant_id: 'tenant-x',
      numbers: ['+4930123'],
      allowed_addresses: [],
      allowed_numbers: ['+49*'],
      authentication: { required: true, username: 'zeta', password_set: true },
      metadata: { tenant_id: IDS.otherTenant, carrier: 'Twilio' },
      krisp_enabled: true,
      created_at: '2026-10-01T08:00:00.000Z',
      updated_at: '2026-10-02T08:00:00.500Z',
    })
    expect(JSON.stringify(trunk)).not.toContain('hunter2')
    expect(sipTrunkListSchema.shape.trunks.element.parse(trunk)).toEqual(trunk)
  })

  it('reports a trunk without credentials as open, and unknown timestamps as null', () => {
    const trunk = fromLiveKit(new SIPInboundTrunkInfo({ sipTrunkId: 'ST_x', name: 'x' }), null)
    expect(trunk.authentication).toEqual({ required: false, username: null, password_set: false })
    expect(trunk).toMatchObject({ metadata: null, krisp_enabled: false, created_at: null, updated_at: null, numbers: [] })
    // A password alone still makes authentication required.
    expect(fromLiveKit(new SIPInboundTrunkInfo({ sipTrunkId: 'ST_y', authPassword: 'p' }), null).authentication).toEqual({
      required: true,
      username: null,
      password_set: true,
    })
  })

  it('parses metadata only when it is a JSON object', () => {
    expect(parseMetadata('{"a":1}')).toEqual({ a: 1 })
    expect(parseMetadata('  {"a":1}')).toEqual({ a: 1 })
    expect(parseMetadata('{not json')).toBe('{not json')
    expect(parseMetadata('[1,2]')).toBe('[1,2]')
    expect(parseMetadata('"quoted"')).toBe('"quoted"')
    expect(parseMetadata('42')).toBe('42')
    expect(parseMetadata('')).toBeNull()
    expect(parseMetadata(null)).toBeNull()
    expect(metadataTenantId('{"tenant_id":"t1"}')).toBe('t1')
    expect(metadataTenantId('{"tenant_id":7}')).toBeNull()
    expect(metadataTenantId('tenant_id')).toBeNull()
  })

  it('reads the LiveKit connection from explicit values, then the environment', () => {
    expect(resolveLiveKitConfig(null, {})).toEqual({ kind: 'none' })
    expect(resolveLiveKitConfig(null, { LIVEKIT_URL: '', LIVEKIT_API_KEY: ' ' })).toEqual({ kind: 'none' })
    expect(resolveLiveKitConfig(null, { LIVEKIT_URL: 'wss://x.livekit.cloud' })).toEqual({
      kind: 'incomplete',
      missing: ['LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET'],
    })
    expect(resolveLiveKitConfig({ apiSecret: 's' }, { LIVEKIT_URL: 'u', LIVEKIT_API_KEY: 'k', LIVEKIT_API_SECRET: 'env' })).toEqual({
      kind: 'ready',
      connection: { url: 'u', apiKey: 'k', apiSecret: 's' },
    })
  })
})

describe('from the store', () => {
  beforeEach(() => {
    insert(handle, 'sip_inbound_trunks', fullTrunk({ sip_trunk_id: 'ST_2', name: 'Main' }))
    insert(handle, 'sip_inbound_trunks', fullTrunk({ sip_trunk_id: 'ST_1', name: 'Main', metadata: 'not json' }))
    insert(handle, 'sip_inbound_trunks', fullTrunk({ sip_trunk_id: 'ST_0', name: 'Zed', tenant_id: IDS.otherTenant }))
    insert(handle, 'sip_inbound_trunks', rows.trunk({ sip_trunk_id: 'ST_9', name: 'Backup' }))
  })

  it('lists every trunk by name then id when LiveKit is not configured', async () => {
    const list = await service().list(admin)
    expect(sipTrunkListSchema.parse(list)).toEqual(list)
    expect(list).toMatchObject({ source: 'store', fallback_reason: null, total: 4, fetched_at: FIXED.toISOString() })
    expect(list.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_9', 'ST_1', 'ST_2', 'ST_0'])
    expect(list.trunks[2]).toEqual({
      sip_trunk_id: 'ST_2',
      name: 'Main',
      tenant_id: IDS.tenant,
      numbers: ['+15550100', '+15550101'],
      allowed_addresses: ['203.0.113.0/28'],
      allowed_numbers: [],
      authentication: { required: true, username: 'acme-trunk', password_set: true },
      metadata: { carrier: 'Telnyx' },
      krisp_enabled: true,
      created_at: '2026-11-01T10:00:00.000Z',
      updated_at: '2026-11-01T10:00:00.000Z',
    })
    expect(list.trunks[1]!.metadata).toBe('not json')
    expect(list.trunks[0]).toMatchObject({
      tenant_id: null,
      numbers: [],
      allowed_addresses: [],
      authentication: { required: false, username: null, password_set: false },
      metadata: null,
      krisp_enabled: false,
    })
  })

  it("shows a tenant-scoped principal only its tenant's trunks", async () => {
    expect((await service().list(tenantOne)).trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_1', 'ST_2'])
    expect((await service().list(tenantTwo)).trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_0'])
  })

  it('says LiveKit is half configured instead of ignoring it', async () => {
    const list = await service({ env: { LIVEKIT_URL: 'http://127.0.0.1:1' } }).list(admin)
    expect(list.source).toBe('store_fallback')
    expect(list.fallback_reason).toBe('LiveKit is not fully configured: LIVEKIT_API_KEY, LIVEKIT_API_SECRET not set')
    expect(list.total).toBe(4)
  })

  it('is served through tRPC as sipTrunks.list', async () => {
    const sipTrunks = service()
    const caller = createCallerFactory(sipTrunksRouter(sipTrunks))({ principal: tenantTwo })
    const list = await caller.list()
    expect(list.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_0'])
  })
})

describe('live from LiveKit', () => {
  let server: Awaited<ReturnType<typeof startTwirpServer>> | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const storedRows = () =>
    handle.sqlite.prepare('select * from sip_inbound_trunks order by sip_trunk_id').all() as Array<Record<string, unknown>>

  it('calls ListSIPInboundTrunk over Twirp JSON with an admin SIP token and maps the answer', async () => {
    server = await startTwirpServer((_req, res) => json(res, 200, { items: liveItems }))
    const list = await live(server.url).list(admin)

    const request = server.requests[0]!
    expect(server.requests).toHaveLength(1)
    expect(request.method).toBe('POST')
    expect(request.path).toBe(PATH)
    expect(request.headers['content-type']).toMatch(/^application\/json/)
    expect(JSON.parse(request.body)).toEqual({})
    const jwt = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1]
    expect(jwt).toBeDefined()
    const claims = await new TokenVerifier(KEY, SECRET).verify(jwt!)
    expect(claims.sip).toEqual(expect.objectContaining({ admin: true }))

    expect(sipTrunkListSchema.parse(list)).toEqual(list)
    expect(list).toMatchObject({ source: 'livekit', fallback_reason: null, total: 3, fetched_at: FIXED.toISOString() })
    expect(list.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_live_a', 'ST_test', 'ST_live_b'])
    expect(list.trunks.find((t) => t.sip_trunk_id === 'ST_test')!.authentication).toEqual({ required: true, username: null, password_set: true })
    expect(list.trunks.find((t) => t.sip_trunk_id === 'ST_live_a')!.metadata).toBe('plain words')
    const body = JSON.stringify(list)
    expect(body).not.toContain('hunter2')
    expect(body).not.toContain('pw-only')
    expect(body).not.toMatch(/password"/)
  })

  it('also accepts the camelCase JSON names', async () => {
    server = await startTwirpServer((_req, res) =>
      json(res, 200, { items: [{ sipTrunkId: 'ST_c', name: 'Camel', allowedAddresses: ['10.0.0.1'], authUsername: 'u', krispEnabled: true }] }),
    )
    const list = await live(server.url).list(admin)
    expect(list.trunks).toEqual([
      expect.objectContaining({ sip_trunk_id: 'ST_c', allowed_addresses: ['10.0.0.1'], krisp_enabled: true, authentication: { required: true, username: 'u', password_set: false } }),
    ])
  })

  it('scopes live trunks by the stored tenant mapping, else by tenant_id in the metadata', async () => {
    // ST_test is mapped to tenant one in the store; ST_live_b names tenant two in its metadata; ST_live_a has no tenant.
    insert(handle, 'sip_inbound_trunks', rows.trunk({ tenant_id: IDS.tenant }))
    server = await startTwirpServer((_req, res) => json(res, 200, { items: liveItems }))
    expect((await live(server.url).list(tenantOne)).trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_test'])
    expect((await live(server.url).list(tenantTwo)).trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_live_b'])
    const all = await live(server.url).list(admin)
    expect(all.trunks.map((t) => [t.sip_trunk_id, t.tenant_id])).toEqual([
      ['ST_live_a', null],
      ['ST_test', IDS.tenant],
      ['ST_live_b', IDS.otherTenant],
    ])
  })

  it('refreshes the stored copy (source livekit, no password, tenant mapping kept) so the fallback is current', async () => {
    insert(handle, 'sip_inbound_trunks', rows.trunk({ tenant_id: IDS.tenant, name: 'Old name', created_at: '2025-01-01T00:00:00.000Z' }))
    insert(handle, 'sip_inbound_trunks', rows.trunk({ sip_trunk_id: 'ST_local', name: 'Local only' }))
    server = await startTwirpServer((_req, res) => json(res, 200, { items: liveItems }))
    await live(server.url).list(admin)

    const stored = storedRows()
    expect(stored.map((r) => [r.sip_trunk_id, r.source, r.tenant_id])).toEqual([
      ['ST_live_a', 'livekit', null],
      ['ST_live_b', 'livekit', IDS.otherTenant],
      ['ST_local', 'store', null],
      ['ST_test', 'livekit', IDS.tenant],
    ])
    expect(JSON.stringify(stored)).not.toContain('hunter2')
    const test = stored.find((r) => r.sip_trunk_id === 'ST_test')!
    expect(test).toMatchObject({ name: 'Alpha line', auth_password_set: 1, auth_username: null, created_at: '2025-01-01T00:00:00.000Z', updated_at: FIXED.toISOString() })
    expect(stored.find((r) => r.sip_trunk_id === 'ST_live_b')).toMatchObject({ metadata: liveItems[0]!.metadata, created_at: '2026-10-01T08:00:00.000Z' })

    // LiveKit goes away: the fallback serves what the last live listing wrote.
    await server.close()
    const fallback = await live(server.url).list(admin)
    expect(fallback.source).toBe('store_fallback')
    expect(fallback.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_live_a', 'ST_test', 'ST_local', 'ST_live_b'])
    expect(fallback.trunks.find((t) => t.sip_trunk_id === 'ST_live_b')).toMatchObject({ authentication: { required: true, username: 'zeta', password_set: true }, krisp_enabled: true })
  })

  it('leaves the store alone when refreshStore is off, and skips metadata tenants that do not exist', async () => {
    server = await startTwirpServer((_req, res) =>
      json(res, 200, { items: [{ sip_trunk_id: 'ST_ghost', name: '', metadata: '{"tenant_id":"no-such-tenant"}' }] }),
    )
    await live(server.url, { refreshStore: false }).list(admin)
    expect(storedRows()).toEqual([])
    const list = await live(server.url).list(admin)
    expect(list.trunks[0]).toMatchObject({ name: '', tenant_id: 'no-such-tenant' })
    // The store needs a name and an existing tenant: the id stands in for the name, the tenant is left empty.
    expect(storedRows()).toEqual([expect.objectContaining({ sip_trunk_id: 'ST_ghost', name: 'ST_ghost', tenant_id: null, source: 'livekit' })])
  })
})

describe('falling back to the store', () => {
  let server: Awaited<ReturnType<typeof startTwirpServer>> | undefined
  beforeEach(() => {
    insert(handle, 'sip_inbound_trunks', fullTrunk())
  })
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  const expectFallback = async (url: string, reason: RegExp, o: SipTrunksServiceOptions = {}) => {
    const list = await live(url, o).list(admin)
    expect(sipTrunkListSchema.parse(list)).toEqual(list)
    expect(list.source).toBe('store_fallback')
    expect(list.fallback_reason).toMatch(reason)
    expect(list.fallback_reason).not.toContain(SECRET)
    expect(list.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_test'])
    return list
  }

  it('when nothing listens', async () => {
    await expectFallback(await closedPortUrl(), /^LiveKit could not be reached: .*ECONNREFUSED/)
  })

  it('when LiveKit answers a Twirp error', async () => {
    server = await startTwirpServer((_req, res) => json(res, 500, { code: 'internal', msg: 'redis is down' }))
    await expectFallback(server.url, /^LiveKit answered 500.*: redis is down$/)
  })

  it('when LiveKit rejects the credentials', async () => {
    server = await startTwirpServer((_req, res) => json(res, 401, { code: 'unauthenticated', msg: 'invalid token' }))
    await expectFallback(server.url, /^LiveKit rejected the API key or secret \(401.*invalid token\)$/)
  })

  it('when a 500 carries an HTML page', async () => {
    server = await startTwirpServer((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/html' })
      res.end(`<html><body>${'Bad gateway '.repeat(100)}</body></html>`)
    })
    const list = await expectFallback(server.url, /^LiveKit answered 502/)
    expect(list.fallback_reason!.length).toBeLessThan(260)
  })

  it('when a 200 carries garbage', async () => {
    server = await startTwirpServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' })
      res.end('this is not json')
    })
    await expectFallback(server.url, /not valid JSON/)
  })

  it('when a 200 carries JSON of the wrong shape', async () => {
    server = await startTwirpServer((_req, res) => json(res, 200, { items: 'nope' }))
    await expectFallback(server.url, /^LiveKit's answer is not a ListSIPInboundTrunk response/)
  })

  it('when LiveKit does not answer in time', async () => {
    server = await startTwirpServer(() => undefined) // never answers
    const started = Date.now()
    await expectFallback(server.url, /^LiveKit did not answer within 300 ms$/, { timeoutMs: 300 })
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it('when the URL is not a URL', async () => {
    await expectFallback('not a url', /^LiveKit URL is not a valid/)
  })

  it('and still scopes the stored copy to the tenant', async () => {
    const list = await live(await closedPortUrl()).list(tenantTwo)
    expect(list).toMatchObject({ source: 'store_fallback', total: 0, trunks: [] })
  })
})
