import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

let server: TestServer
let tenants: Array<{ id: string; name: string }>
beforeAll(async () => {
  server = await startTestServer()
  tenants = server.sqlite.prepare('select id, name from tenants order by name').all() as typeof tenants
})
afterAll(async () => server.close())

const SPEC_FIELDS = [
  'name', 'billing_plan', 'sip_enabled', 'recording_enabled', 'analytics_enabled', 'max_concurrent_calls',
  'monthly_call_limit', 'id', 'status', 'monthly_usage_cents', 'meta_data', 'sip_domain', 'sip_username',
  'hipaa_enabled', 'pci_enabled', 'recording_format', 'retention_days', 'data_encryption_enabled', 'webhook_url',
  'webhook_timeout_seconds', 'created_at', 'updated_at',
]

describe('GET /tenants/{tenant_id}', () => {
  it('returns the stored tenant with all 22 fields of the spec, typed as the spec says', async () => {
    const tenant = tenants[0]!
    const response = await server.get(`/tenants/${tenant.id}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const body = (await response.json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual([...SPEC_FIELDS].sort())
    const row = server.sqlite.prepare('select * from tenants where id = ?').get(tenant.id) as Record<string, unknown>
    expect(body).toMatchObject({
      id: tenant.id,
      name: tenant.name,
      billing_plan: row.billing_plan,
      max_concurrent_calls: row.max_concurrent_calls,
      monthly_usage_cents: row.monthly_usage_cents,
      hipaa_enabled: row.hipaa_enabled === 1,
      meta_data: JSON.parse(row.meta_data as string),
      created_at: row.created_at,
    })
    for (const flag of ['sip_enabled', 'recording_enabled', 'analytics_enabled', 'hipaa_enabled', 'pci_enabled', 'data_encryption_enabled']) {
      expect(typeof body[flag]).toBe('boolean')
    }
    expect(Number.isInteger(body.retention_days)).toBe(true)
  })

  it('answers 404 in FastAPI shape for a well-formed id that does not exist', async () => {
    const response = await server.get('/tenants/0b8c7a3e-0000-4000-8000-000000000000')
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ detail: 'Tenant not found' })
  })

  it.each([
    ['not-a-uuid', 'invalid character: found `n` at 1'],
    ['1234', 'invalid length: expected length 32 for simple format, found 4'],
  ])('rejects the path id %s with a 422 uuid_parsing error', async (id, error) => {
    const response = await server.get(`/tenants/${id}`)
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      detail: [{ type: 'uuid_parsing', loc: ['path', 'tenant_id'], msg: `Input should be a valid UUID, ${error}`, input: id, ctx: { error } }],
    })
  })

  it('shows a tenant token its own tenant and hides every other one as not found', async () => {
    const [own, other] = tenants
    const token = await tokenFor(server, 'tenant', own!.id)
    expect((await server.get(`/tenants/${own!.id}`, { headers: bearer(token) })).status).toBe(200)
    const hidden = await server.get(`/tenants/${other!.id}`, { headers: bearer(token) })
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ detail: 'Tenant not found' })
  })

  it('lets a viewer token read tenants', async () => {
    const token = await tokenFor(server, 'viewer')
    expect((await server.get(`/tenants/${tenants[1]!.id}`, { headers: bearer(token) })).status).toBe(200)
  })
})
