import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

let server: TestServer
let agentId: string
let agentTenant: string
let total: number
beforeAll(async () => {
  server = await startTestServer()
  // The agent with the most sessions, so pagination has pages.
  const row = server.sqlite
    .prepare('select a.id, a.tenant_id, count(*) n from conversations c join agents a on a.id = c.agent_id group by a.id order by n desc limit 1')
    .get() as { id: string; tenant_id: string; n: number }
  agentId = row.id
  agentTenant = row.tenant_id
  total = row.n
})
afterAll(async () => server.close())

type Page = { sessions: Array<{ conversation_id: string; created_at: string; updated_at: string; message_count: number; last_message_preview: string }>; total: number; limit: number; offset: number }
const page = async (query = '', base = 'sessions') => {
  const response = await server.get(`/agents/${agentId}/${base}${query}`)
  expect(response.status).toBe(200)
  return (await response.json()) as Page
}

describe('GET /agents/{agent_id}/sessions', () => {
  it('defaults to limit 20 and offset 0, echoes them with the total, newest first', async () => {
    const body = await page()
    expect(total).toBeGreaterThan(100)
    expect(body).toMatchObject({ total, limit: 20, offset: 0 })
    expect(body.sessions).toHaveLength(20)
    const expected = server.sqlite
      .prepare('select id from conversations where agent_id = ? order by created_at desc, id desc limit 20')
      .pluck()
      .all(agentId)
    expect(body.sessions.map((s) => s.conversation_id)).toEqual(expected)
    expect(Object.keys(body.sessions[0]!).sort()).toEqual(['conversation_id', 'created_at', 'last_message_preview', 'message_count', 'updated_at'])
  })

  it('counts messages and previews the last non-empty one, cut to 120 characters (code points)', async () => {
    const { sessions } = await page('?limit=50')
    const db = server.sqlite
    for (const s of sessions) {
      expect(s.message_count).toBe(db.prepare('select count(*) from messages where conversation_id = ?').pluck().get(s.conversation_id))
      const last = (db.prepare("select content from messages where conversation_id = ? and content <> '' order by position desc limit 1").pluck().get(s.conversation_id) as string | undefined) ?? ''
      const characters = Array.from(last)
      expect(s.last_message_preview).toBe(characters.length > 120 ? `${characters.slice(0, 119).join('')}…` : last)
    }
  })

  it('pages without overlap or gaps across the whole listing', async () => {
    const seen: string[] = []
    for (let offset = 0; offset < total; offset += 100) {
      const body = await page(`?limit=100&offset=${offset}`)
      expect(body.offset).toBe(offset)
      seen.push(...body.sessions.map((s) => s.conversation_id))
    }
    expect(seen).toHaveLength(total)
    expect(new Set(seen).size).toBe(total)
  })

  it('accepts the edges of limit and offset and answers an offset past the end with an empty page', async () => {
    expect((await page('?limit=1')).sessions).toHaveLength(1)
    expect((await page('?limit=100')).sessions).toHaveLength(Math.min(100, total))
    const past = await page(`?offset=${total}`)
    expect(past).toMatchObject({ sessions: [], total, offset: total })
  })

  it('serves the same body under the /conversations alias', async () => {
    expect(await page('?limit=7&offset=3', 'conversations')).toEqual(await page('?limit=7&offset=3'))
  })

  it.each([
    ['?limit=0', 'limit', 'greater_than_equal', 'Input should be greater than or equal to 1', '0', { ge: 1 }],
    ['?limit=101', 'limit', 'less_than_equal', 'Input should be less than or equal to 100', '101', { le: 100 }],
    ['?offset=-1', 'offset', 'greater_than_equal', 'Input should be greater than or equal to 0', '-1', { ge: 0 }],
    ['?limit=ten', 'limit', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer', 'ten', undefined],
    ['?limit=2.5', 'limit', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer', '2.5', undefined],
    ['?offset=', 'offset', 'int_parsing', 'Input should be a valid integer, unable to parse string as an integer', '', undefined],
  ])('rejects %s with a 422 %s error', async (query, field, type, msg, input, ctx) => {
    for (const base of ['sessions', 'conversations']) {
      const response = await server.get(`/agents/${agentId}/${base}${query}`)
      expect(response.status).toBe(422)
      expect(await response.json()).toEqual({ detail: [{ type, loc: ['query', field], msg, input, ...(ctx ? { ctx } : {}) }] })
    }
  })

  it('takes any agent id up to 255 characters (a real backend\'s own ids), and answers an unknown one with 404', async () => {
    const named = await server.get('/agents/agent-7/sessions')
    expect(named.status).toBe(404)
    expect(await named.json()).toEqual({ detail: 'Agent not found' })
    const long = await server.get(`/agents/${'a'.repeat(256)}/sessions`)
    expect(long.status).toBe(422)
    expect(((await long.json()) as { detail: unknown[] }).detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'agent_id'] })
    // A UUID in another spelling finds the stored lower-case id.
    const braced = await server.get(`/agents/{${agentId.toUpperCase()}}/sessions`)
    expect(braced.status).toBe(200)
    const unknown = await server.get('/agents/0b8c7a3e-0000-4000-8000-000000000000/sessions')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Agent not found' })
  })

  it("shows a tenant token its own agents' sessions and hides other tenants' agents", async () => {
    const own = await tokenFor(server, 'tenant', agentTenant)
    expect((await server.get(`/agents/${agentId}/sessions`, { headers: bearer(own) })).status).toBe(200)
    const otherTenant = server.sqlite.prepare('select id from tenants where id <> ? limit 1').pluck().get(agentTenant) as string
    const other = await tokenFor(server, 'tenant', otherTenant)
    expect((await server.get(`/agents/${agentId}/sessions`, { headers: bearer(other) })).status).toBe(404)
  })
})
