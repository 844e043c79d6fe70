import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15, point 1: a store pulled from a second Callscope on loopback answers the spec's
 * operations with the same bytes as its source. Each operation compared here is compared for every
 * id the source has, the status and the body's exact text.
 */

let source: TestServer
let mirror: TestServer
let report: PullReport

beforeAll(async () => {
  source = await startTestServer()
  mirror = await startTestServer({ seed: false })
  // Since long before the demo data: everything the source has.
  report = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
}, 120_000)
afterAll(async () => {
  await mirror?.close()
  await source?.close()
})

/** Status and body text of the same request to both. */
async function both(path: string): Promise<Array<{ status: number; body: string }>> {
  return Promise.all([source, mirror].map(async (server) => {
    const response = await server.get(path)
    return { status: response.status, body: await response.text() }
  }))
}

const ids = (query: string) => source.sqlite.prepare(query).pluck().all() as string[]

describe('a mirror pulled from a second Callscope', () => {
  it('pulled everything without a problem', () => {
    expect(report).toMatchObject({ status: 'completed', failure: null, errors: [] })
    // Served from pulled rows: the mirror has no agent or conversation of its own.
    const count = (table: string) => mirror.sqlite.prepare(`select count(*) from ${table}`).pluck().get()
    expect([count('agents'), count('conversations')]).toEqual([0, 0])
    expect(count('pulled_sessions')).toBe(source.sqlite.prepare('select count(*) from conversations').pluck().get())
  })

  it('answers GET /agents/{agent_id}/sessions as its source does, for every agent with sessions, page by page', async () => {
    const agents = ids('select distinct agent_id from conversations order by agent_id')
    expect(agents.length).toBeGreaterThan(5)
    let pages = 0
    for (const agent of agents) {
      const total = (source.sqlite.prepare('select count(*) from conversations where agent_id = ?').pluck().get(agent) as number)
      for (const [limit, offset] of [[100, 0], [7, 3], [100, 100], [20, total], [1, Math.max(0, total - 1)]]) {
        const [expected, actual] = await both(`/agents/${agent}/sessions?limit=${limit}&offset=${offset}`)
        expect(expected!.status).toBe(200)
        expect(actual, `${agent} limit=${limit} offset=${offset}`).toEqual(expected)
        pages++
      }
    }
    expect(pages).toBe(agents.length * 5)
    // Through the alias too, and the console's tRPC query reads the same rows.
    const [alias, aliasMirror] = await both(`/agents/${agents[0]}/conversations?limit=5`)
    expect(aliasMirror).toEqual(alias)
  })

  it('answers GET /tenants/{tenant_id} as its source does, for every tenant', async () => {
    for (const tenant of ids('select id from tenants order by id')) {
      const [expected, actual] = await both(`/tenants/${tenant}`)
      expect(expected!.status).toBe(200)
      expect(actual, tenant).toEqual(expected)
    }
  })

  it('keeps a pulled agent with sessions to its tenant: a tenant token of another tenant gets 404', async () => {
    const agent = ids('select agent_id from conversations limit 1')[0]!
    const [own, other] = ids(`select id from tenants order by (id = (select tenant_id from agents where id = '${agent}')) desc`)
    for (const [tenant, status] of [[own!, 200], [other!, 404]] as const) {
      const { token } = await mirror.service.tokens.create({ name: 't', role: 'tenant', tenantId: tenant })
      const response = await fetch(`${mirror.url}/agents/${agent}/sessions`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status, tenant).toBe(status)
    }
  })
})
