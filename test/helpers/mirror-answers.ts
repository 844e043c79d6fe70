import { expect, it } from 'vitest'
import { llmProviderIds } from '../../src-main/modules/providers/catalog'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import { ADMIN_TOKEN, type TestServer } from './test-server'

/**
 * Issue 15, point 1, as one set of tests for every store a mirror can be (SQLite:
 * test/integration/mirror.test.ts, PostgreSQL: test/pg/pull.test.ts): a store pulled from a second
 * Callscope answers each operation of the spec as its source does, for every id the source has,
 * status and body text compared. Call inside a describe; `pulled` gives the two servers and the
 * pull's report once its beforeAll has run.
 */
export function itAnswersAsItsSource(pulled: () => { source: TestServer; mirror: TestServer; report: PullReport }): void {
  /** Status and body text of the same request to both. */
  async function both(path: string): Promise<Array<{ status: number; body: string }>> {
    const { source, mirror } = pulled()
    return Promise.all([source, mirror].map(async (server) => {
      const response = await server.get(path)
      return { status: response.status, body: await response.text() }
    }))
  }
  const ids = (query: string) => pulled().source.sqlite.prepare(query).pluck().all() as string[]

  it('answers GET /agents/{agent_id}/sessions as its source does, for every agent with sessions, page by page', async () => {
    const { source, mirror, report } = pulled()
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
    const { source, mirror, report } = pulled()
    for (const tenant of ids('select id from tenants order by id')) {
      const [expected, actual] = await both(`/tenants/${tenant}`)
      expect(expected!.status).toBe(200)
      expect(actual, tenant).toEqual(expected)
    }
  })

  it('answers GET /logs/calls as its source does: every agent, and the whole range a day at a time', async () => {
    const { source, mirror, report } = pulled()
    let compared = 0
    for (const agent of ids('select distinct agent_id from call_logs where agent_id is not null order by agent_id')) {
      const [expected, actual] = await both(`/logs/calls?agent_id=${agent}&limit=1000`)
      expect(expected!.status).toBe(200)
      expect(actual, agent).toEqual(expected)
      compared++
    }
    const days = ids("select distinct substr(timestamp, 1, 10) from call_logs order by 1")
    for (const day of days) {
      const [expected, actual] = await both(`/logs/calls?start_date=${day}&end_date=${day}&limit=1000`)
      expect(actual, day).toEqual(expected)
      compared++
    }
    expect(compared).toBeGreaterThan(20)
  })

  it('answers GET /squads/{squad_id}/analytics as its source does for the period pulled, for every squad, and says it was pulled', async () => {
    const { source, mirror, report } = pulled()
    const squads = ids('select id from squads order by id')
    expect(squads.length).toBeGreaterThan(1)
    const period = `start_date=${encodeURIComponent(report.since)}&end_date=${encodeURIComponent(report.until)}`
    for (const squad of squads) {
      const [expected, actual] = await both(`/squads/${squad}/analytics?${period}`)
      expect(expected!.status).toBe(200)
      expect(actual, squad).toEqual(expected)
      // Whatever period is asked, the pulled one is served, and the headers say so.
      const response = await mirror.get(`/squads/${squad}/analytics?start_date=2020-01-01&end_date=2020-01-02`)
      expect(await response.text()).toBe(expected!.body)
      expect(response.headers.get('callscope-pulled-from')).toBe(source.url)
      expect(response.headers.get('callscope-pulled-period')).toBe(`${report.since}/${report.until}`)
      expect(Number.isNaN(Date.parse(response.headers.get('callscope-pulled-at') ?? ''))).toBe(false)
    }
    const unknown = await both('/squads/no-such-squad/analytics')
    expect(unknown[1]).toEqual(unknown[0])
  })

  it('answers every operation asked without dates or paging as its source does, the defaults that follow the clock included (issue 36 pt 5)', async () => {
    // The same moment on both: the callers pin the source's clock (service option `clock`), so its
    // default period now is the one it chose when the pull asked.
    const { source, mirror } = pulled()
    const paths = [
      ...ids('select id from tenants order by id').map((t) => `/tenants/${t}`),
      ...ids('select distinct agent_id from conversations order by agent_id').map((a) => `/agents/${a}/sessions`),
      '/logs/calls',
      ...ids('select distinct agent_id from call_logs where agent_id is not null order by agent_id').map((a) => `/logs/calls?agent_id=${a}`),
      ...ids('select id from squads order by id').map((s) => `/squads/${s}/analytics`),
      ...llmProviderIds.map((p) => `/admin/providers/llm/${p}`),
    ]
    const differing: string[] = []
    for (const path of paths) {
      const [expected, actual] = await both(path)
      expect(expected!.status, path).toBe(200)
      if (actual!.status !== expected!.status || actual!.body !== expected!.body) differing.push(path)
    }
    expect(differing).toEqual([])
    expect(paths.filter((p) => p.startsWith('/squads/')).length).toBeGreaterThan(1)
  })

  it('answers GET /squads/{squad_id}/analytics without dates with the source\'s default period, and says when the source chose it', async () => {
    const { source, mirror, report } = pulled()
    for (const squad of ids('select id from squads order by id')) {
      const response = await mirror.get(`/squads/${squad}/analytics`)
      const body = await response.text()
      const { period } = JSON.parse(body) as { period: { start: string; end: string; hours: number } }
      // The source's default (the last 30 days), not the pull's range.
      expect(period.hours, squad).toBe(720)
      expect(period.start > report.since).toBe(true)
      expect(response.headers.get('callscope-pulled-period')).toBe(`${period.start}/${period.end}`)
      const defaultsAt = response.headers.get('callscope-defaults-at') ?? ''
      expect(Date.parse(defaultsAt) >= Date.parse(report.startedAt)).toBe(true)
      expect(response.headers.get('callscope-pulled-at')).toBe(defaultsAt)
      // Whatever the source's clock: the answer is the source's for the period it names.
      const named = await source.get(`/squads/${squad}/analytics?start_date=${period.start}&end_date=${period.end}`)
      expect(await named.text(), squad).toBe(body)
      // A request with dates still gets the pulled range's answer, without the clock's header.
      const dated = await mirror.get(`/squads/${squad}/analytics?start_date=2020-01-01`)
      expect(dated.headers.get('callscope-pulled-period')).toBe(`${report.since}/${report.until}`)
      expect(dated.headers.get('callscope-defaults-at')).toBeNull()
    }
  })

  it('answers GET /agents/sip/list-trunks as its source does, but for `source` and `fetched_at`', async () => {
    const { source, mirror, report } = pulled()
    const [expected, actual] = await both('/agents/sip/list-trunks')
    expect([expected!.status, actual!.status]).toEqual([200, 200])
    const [want, got] = [JSON.parse(expected!.body), JSON.parse(actual!.body)]
    expect(want.trunks.length).toBeGreaterThan(0)
    expect(got.source).toBe('pulled')
    expect(JSON.stringify({ ...got, source: want.source, fetched_at: want.fetched_at })).toBe(expected!.body)
  })

  it('answers GET /admin/providers/llm/{provider} as its source does, for every provider, agents included', async () => {
    const { source, mirror, report } = pulled()
    for (const provider of llmProviderIds) {
      const [expected, actual] = await both(`/admin/providers/llm/${provider}`)
      expect(expected!.status).toBe(200)
      expect(actual, provider).toEqual(expected)
    }
    expect(JSON.parse((await both('/admin/providers/llm/openai'))[1]!.body).agents.count).toBeGreaterThan(0)
  })

  it('answers POST /admin/providers/validate/stt as its source does, but for the time it took', async () => {
    const { source, mirror, report } = pulled()
    const requests = [
      { provider: 'deepgram', provider_type: 'stt', voice_id: 'aura-asteria-en', model: 'nova-3' },
      { provider: 'deepgrm', provider_type: 'stt', voice_id: 'x', model: 'nova-3' },
      { provider: 'assemblyai', provider_type: 'tts', voice_id: 'x', model: 'no-such-model' },
      { provider: 'deepgram' },
    ]
    for (const request of requests) {
      const [expected, actual] = await Promise.all([source, mirror].map(async (server) => {
        const response = await fetch(`${server.url}/admin/providers/validate/stt`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(request),
        })
        return { status: response.status, body: (await response.text()).replace(/"latency_ms":\d+/, '"latency_ms":0') }
      }))
      expect(actual, JSON.stringify(request)).toEqual(expected)
    }
  })

  it('keeps a pulled agent with sessions to its tenant: a tenant token of another tenant gets 404', async () => {
    const { source, mirror, report } = pulled()
    const agent = ids('select agent_id from conversations limit 1')[0]!
    const [own, other] = ids(`select id from tenants order by (id = (select tenant_id from agents where id = '${agent}')) desc`)
    for (const [tenant, status] of [[own!, 200], [other!, 404]] as const) {
      const { token } = await mirror.service.tokens.create({ name: 't', role: 'tenant', tenantId: tenant })
      const response = await fetch(`${mirror.url}/agents/${agent}/sessions`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status, tenant).toBe(status)
    }
  })
}
