import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { paths } from '../generated/openapi'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/**
 * A client typed from the served /openapi.json by openapi-typescript (test/generated/openapi.ts,
 * kept in step by openapi.test.ts) calls every operation: the document works for real tools.
 */
let server: TestServer
let client: ReturnType<typeof createClient<paths>>
let ids: { tenant: string; agent: string; squad: string }

beforeAll(async () => {
  server = await startTestServer()
  client = createClient<paths>({ baseUrl: server.url, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })
  const db = server.sqlite
  ids = {
    tenant: db.prepare('select id from tenants limit 1').pluck().get() as string,
    agent: db.prepare('select agent_id from conversations group by agent_id order by count(*) desc limit 1').pluck().get() as string,
    squad: db.prepare('select id from squads limit 1').pluck().get() as string,
  }
})
afterAll(async () => server.close())

describe('typed client generated from /openapi.json', () => {
  it('gets a tenant', async () => {
    const { data, response } = await client.GET('/tenants/{tenant_id}', { params: { path: { tenant_id: ids.tenant } } })
    expect(response.status).toBe(200)
    expect(data!.id).toBe(ids.tenant)
  })

  it('lists agent sessions under both paths', async () => {
    const a = await client.GET('/agents/{agent_id}/sessions', { params: { path: { agent_id: ids.agent }, query: { limit: 5, offset: 0 } } })
    const b = await client.GET('/agents/{agent_id}/conversations', { params: { path: { agent_id: ids.agent }, query: { limit: 5, offset: 0 } } })
    expect(a.data!.sessions).toHaveLength(5)
    expect(b.data).toEqual(a.data)
  })

  it('reads call logs with every query parameter', async () => {
    const { data, response } = await client.GET('/logs/calls', {
      params: { query: { agent_id: ids.agent, start_date: '2026-11-01', end_date: '2026-11-20', limit: 25 } },
    })
    expect(response.status).toBe(200)
    expect(data!.length).toBeGreaterThan(0)
    expect(data!.every((log) => log.agent_id === ids.agent)).toBe(true)
  })

  it('gets squad analytics', async () => {
    const { data, response } = await client.GET('/squads/{squad_id}/analytics', { params: { path: { squad_id: ids.squad } } })
    expect(response.status).toBe(200)
    expect(data!.squad_id).toBe(ids.squad)
    expect(data!.session_distribution.by_hour).toHaveLength(24)
  })

  it('gets LLM provider details', async () => {
    const { data, response } = await client.GET('/admin/providers/llm/{provider}', { params: { path: { provider: 'anthropic' } } })
    expect(response.status).toBe(200)
    expect(data!.models.length).toBeGreaterThan(0)
  })

  it('validates an STT configuration offline', async () => {
    const { data, response } = await client.POST('/admin/providers/validate/stt', {
      body: { provider: 'deepgram', provider_type: 'stt', model: 'nova-3', voice_id: '' },
    })
    expect(response.status).toBe(200)
    expect(data!.mode).toBe('offline')
    expect(data!.valid).toBe(false)
    expect(data!.checks.find((c) => c.name === 'model_available')!.status).toBe('pass')
  })

  it('lists SIP trunks', async () => {
    const { data, response } = await client.GET('/agents/sip/list-trunks')
    expect(response.status).toBe(200)
    expect(data!.total).toBe(data!.trunks.length)
    expect(data!.source).toBe('store')
  })

  it('reads a 422 as the documented HTTPValidationError', async () => {
    const { error, response } = await client.GET('/logs/calls', { params: { query: { limit: 0 } } })
    expect(response.status).toBe(422)
    expect(error).toMatchObject({ detail: [{ type: 'greater_than_equal', loc: ['query', 'limit'] }] })
  })
})
