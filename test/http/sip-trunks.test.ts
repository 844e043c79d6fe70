import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sipTrunkListSchema } from '../../src-shared/schemas/sip-trunk'
import { createService, type Service } from '../../src-main/service'
import { createHttpApp, type HttpApp } from '../../src-main/server/http-app'
import { closedPortUrl, json, startTwirpServer } from '../helpers/livekit-twirp'
import { fullTrunk, IDS, insert, rows } from '../helpers/rows'

const ADMIN = { Authorization: 'Bearer test-token' }
const PATH = '/agents/sip/list-trunks'

let service: Service
let app: HttpApp

async function start(env: Record<string, string>) {
  for (const name of ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET']) vi.stubEnv(name, env[name] ?? '')
  service = await createService({ dbPath: ':memory:', envToken: 'test-token', seedNewDatabase: false })
  app = createHttpApp({ service, version: 'test' })
  const h = service.handle
  insert(h, 'tenants', rows.tenant())
  insert(h, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(h, 'sip_inbound_trunks', fullTrunk({ sip_trunk_id: 'ST_b', name: 'Main' }))
  insert(h, 'sip_inbound_trunks', fullTrunk({ sip_trunk_id: 'ST_a', name: 'Main', auth_password_set: 0, auth_username: null }))
  insert(h, 'sip_inbound_trunks', rows.trunk({ sip_trunk_id: 'ST_other', name: 'Globex line', tenant_id: IDS.otherTenant }))
}

afterEach(async () => {
  await service.close()
  vi.unstubAllEnvs()
})

describe('GET /agents/sip/list-trunks from the store', () => {
  beforeEach(() => start({}))

  it('answers 200 with the trunk list', async () => {
    const res = await app.request(PATH, { headers: ADMIN })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown>
    expect(sipTrunkListSchema.strict().parse(body)).toEqual(body)
    expect(body).toMatchObject({ source: 'store', fallback_reason: null, total: 3, fetched_at: expect.stringMatching(/Z$/) })
    expect(body.trunks).toEqual([
      expect.objectContaining({ sip_trunk_id: 'ST_other', name: 'Globex line' }),
      {
        sip_trunk_id: 'ST_a',
        name: 'Main',
        tenant_id: IDS.tenant,
        numbers: ['+15550100', '+15550101'],
        allowed_addresses: ['203.0.113.0/28'],
        allowed_numbers: [],
        authentication: { required: false, username: null, password_set: false },
        metadata: { carrier: 'Telnyx' },
        krisp_enabled: true,
        created_at: '2026-11-01T10:00:00.000Z',
        updated_at: '2026-11-01T10:00:00.000Z',
      },
      expect.objectContaining({ sip_trunk_id: 'ST_b', authentication: { required: true, username: 'acme-trunk', password_set: true } }),
    ])
  })

  it('answers 401 without a token', async () => {
    const res = await app.request(PATH)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    expect(await res.json()).toEqual({ detail: 'Not authenticated' })
    expect((await app.request(PATH, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401)
  })

  it("shows a tenant token only its tenant's trunks", async () => {
    const { token } = await service.tokens.create({ name: 'globex', role: 'tenant', tenantId: IDS.otherTenant })
    const res = await app.request(PATH, { headers: { Authorization: `Bearer ${token}` } })
    const body = (await res.json()) as { trunks: Array<{ sip_trunk_id: string }>; total: number }
    expect(body.total).toBe(1)
    expect(body.trunks.map((t) => t.sip_trunk_id)).toEqual(['ST_other'])
  })

  it('is not captured by the /agents/{agent_id}/... routes, nor captures them', async () => {
    // Same segment count as /agents/{agent_id}/sessions: only the last segment tells them apart.
    // "sip" is a valid agent id (ids have no format in the spec), of no stored agent.
    const sipAgent = await app.request('/agents/sip/sessions', { headers: ADMIN })
    expect(sipAgent.status).toBe(404)
    expect(await sipAgent.json()).toEqual({ detail: 'Agent not found' })
    expect((await app.request(`/agents/${IDS.agent}/sessions`, { headers: ADMIN })).status).toBe(404)
    expect((await app.request('/agents/sip/list-trunks/', { headers: ADMIN })).status).toBe(404)
    const post = await app.request(PATH, { method: 'POST', headers: ADMIN })
    expect(post.status).toBe(405)
  })

  it('is listed in the OpenAPI document', async () => {
    const res = await app.request('/openapi.json')
    expect(res.status).toBe(200)
    const doc = (await res.json()) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> }
    expect(doc.paths[PATH]?.get?.operationId).toBe('list_sip_trunks')
    expect(Object.keys(doc.paths[PATH]!.get!.responses).sort()).toEqual(['200', '401', '403', '422'])
    // 403 and 422 come with ?source= (a token bound to another source, a source the store does not hold).
    expect((doc.paths[PATH]!.get! as unknown as { parameters: Array<{ $ref?: string }> }).parameters).toEqual([{ $ref: '#/components/parameters/Source' }])
  })
})

describe('GET /agents/sip/list-trunks with LiveKit configured through the environment', () => {
  let server: Awaited<ReturnType<typeof startTwirpServer>> | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('lists live and marks the source', async () => {
    server = await startTwirpServer((_req, res) =>
      json(res, 200, { items: [{ sip_trunk_id: 'ST_live', name: 'Live', numbers: ['+1555'], auth_username: 'u', auth_password: 'secret-pw' }] }),
    )
    await start({ LIVEKIT_URL: server.url, LIVEKIT_API_KEY: 'key', LIVEKIT_API_SECRET: 'secret-secret-secret-secret-secret' })
    const res = await app.request(PATH, { headers: ADMIN })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).not.toContain('secret-pw')
    expect(JSON.parse(text)).toMatchObject({
      source: 'livekit',
      total: 1,
      trunks: [{ sip_trunk_id: 'ST_live', authentication: { required: true, username: 'u', password_set: true } }],
    })
    expect(server.requests[0]!.headers.authorization).toMatch(/^Bearer ey/)
  })

  it('falls back to the store with the reason, never a 500', async () => {
    await start({ LIVEKIT_URL: await closedPortUrl(), LIVEKIT_API_KEY: 'key', LIVEKIT_API_SECRET: 'secret-secret-secret-secret-secret' })
    const res = await app.request(PATH, { headers: ADMIN })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ source: 'store_fallback', total: 3, fallback_reason: expect.stringMatching(/could not be reached/) })
  })
})
