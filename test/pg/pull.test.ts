import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmProviderIds } from '../../src-main/modules/providers/catalog'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import { runCliAsync } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * A pull into a PostgreSQL store (issue 20): a second Callscope (SQLite, the demo set) serves on
 * loopback, a PostgreSQL store pulls all of it (tenants, call logs through COPY, sessions, squad
 * analytics, trunks, provider details, cursors), and then answers the spec's operations with the
 * same bytes as its source, as test/integration/mirror.test.ts asks of a SQLite mirror.
 */

let source: TestServer
let mirror: TestServer
let report: PullReport

beforeAll(async () => {
  source = await startTestServer()
  mirror = await startTestServer({ seed: false, store: 'postgres' })
  // Since long before the demo data: everything the source has.
  report = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
}, 180_000)
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

/** Rows of a table of the PostgreSQL mirror. */
async function count(table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(mirror.service.db)
  return rows[0]!.n
}

describe('a PostgreSQL mirror pulled from a second Callscope', () => {
  it('pulled everything without a problem, each call log once, with its cursors', async () => {
    expect(report).toMatchObject({ status: 'completed', failure: null, errors: [] })
    // Served from pulled rows: the mirror has no agent or conversation of its own.
    expect([await count('agents'), await count('conversations')]).toEqual([0, 0])
    expect(await count('pulled_sessions')).toBe(source.sqlite.prepare('select count(*) from conversations').pluck().get())
    const logs = source.sqlite.prepare('select count(*) from call_logs').pluck().get() as number
    expect(report.counts.callLogs).toMatchObject({ fetched: logs, inserted: logs, duplicates: 0, invalid: 0 })
    expect([await count('call_logs'), await count('call_log_ids')]).toEqual([logs, logs])
    const origin = await mirror.service.db.selectFrom('call_logs').select(['pull_id', 'source', 'import_id']).distinct().execute()
    expect(origin).toEqual([{ pull_id: report.id, source: source.url, import_id: null }])
    expect(await count('pull_cursors')).toBeGreaterThan(0)
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

  it('answers GET /logs/calls as its source does: every agent, and the whole range a day at a time', async () => {
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

  it('answers GET /agents/sip/list-trunks as its source does, but for `source` and `fetched_at`', async () => {
    const [expected, actual] = await both('/agents/sip/list-trunks')
    expect([expected!.status, actual!.status]).toEqual([200, 200])
    const [want, got] = [JSON.parse(expected!.body), JSON.parse(actual!.body)]
    expect(want.trunks.length).toBeGreaterThan(0)
    expect(got.source).toBe('pulled')
    expect(JSON.stringify({ ...got, source: want.source, fetched_at: want.fetched_at })).toBe(expected!.body)
  })

  it('answers GET /admin/providers/llm/{provider} as its source does, for every provider, agents included', async () => {
    for (const provider of llmProviderIds) {
      const [expected, actual] = await both(`/admin/providers/llm/${provider}`)
      expect(expected!.status).toBe(200)
      expect(actual, provider).toEqual(expected)
    }
    expect(JSON.parse((await both('/admin/providers/llm/openai'))[1]!.body).agents.count).toBeGreaterThan(0)
  })

  it('answers POST /admin/providers/validate/stt as its source does, but for the time it took', async () => {
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
    const agent = ids('select agent_id from conversations limit 1')[0]!
    const [own, other] = ids(`select id from tenants order by (id = (select tenant_id from agents where id = '${agent}')) desc`)
    for (const [tenant, status] of [[own!, 200], [other!, 404]] as const) {
      const { token } = await mirror.service.tokens.create({ name: 't', role: 'tenant', tenantId: tenant })
      const response = await fetch(`${mirror.url}/agents/${agent}/sessions`, { headers: { Authorization: `Bearer ${token}` } })
      expect(response.status, tenant).toBe(status)
    }
  })

  it('pulls again without storing anything twice (last: the pulled analytics take the new period)', async () => {
    const again = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
    expect(again).toMatchObject({ status: 'completed', failure: null, errors: [] })
    expect(again.counts.callLogs.inserted).toBe(0)
    expect(await count('call_logs')).toBe(source.sqlite.prepare('select count(*) from call_logs').pluck().get())
  }, 120_000)
})

describe('Keep in sync / pull --follow into PostgreSQL', () => {
  it('mirrors everything on its first cycle, then picks up a line added to the source', async () => {
    const synced = await startTestServer({ seed: false, store: 'postgres' })
    try {
      const cycles: PullReport[] = []
      const waiters: Array<{ match: (p: PullReport) => boolean; resolve: (p: PullReport) => void }> = []
      const next = (match: (p: PullReport) => boolean) => new Promise<PullReport>((resolve) => waiters.push({ match, resolve }))
      const onCycle = (pull: PullReport) => {
        cycles.push(pull)
        for (const w of [...waiters]) if (w.match(pull)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(pull)
      }
      const first = next(() => true)
      const { done } = await synced.service.syncs.begin({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, intervalMs: 1000 }, { onCycle })
      expect(await first).toMatchObject({ status: 'completed', sync: true, errors: [] })
      const stored = async () => (await sql<{ n: number }>`select count(*) as n from call_logs`.execute(synced.service.db)).rows[0]!.n
      expect(await stored()).toBe(source.sqlite.prepare('select count(*) from call_logs').pluck().get())

      const tenant = source.sqlite.prepare('select id from tenants order by id limit 1').pluck().get() as string
      const id = randomUUID()
      const line = { id, tenant_id: tenant, log_type: 'llm', log_level: 'error', message: 'late line into PostgreSQL', timestamp: new Date(Date.now() - 1000).toISOString(), details: {} }
      const added = next((p) => p.counts.callLogs.inserted > 0)
      expect((await source.get('/imports/call-logs?file_name=late.ndjson', { method: 'POST', body: JSON.stringify(line), headers: { 'Content-Type': 'application/x-ndjson' } })).status).toBe(201)
      expect((await added).counts.callLogs.inserted).toBe(1)
      const row = await synced.service.db.selectFrom('call_logs').select(['message', 'source']).where('id', '=', id).executeTakeFirst()
      expect(row).toEqual({ message: 'late line into PostgreSQL', source: source.url })
      await synced.service.syncs.stop(source.url)
      const ended = await done
      expect(ended).toMatchObject({ running: false, failures: 0, lastError: null })
      expect(ended.cycles).toBeGreaterThanOrEqual(2)
    } finally {
      await synced.close()
    }
  }, 180_000)
})

describe('callscope pull --db postgres://', () => {
  it('pulls into a PostgreSQL store and prints what it fetched', async () => {
    const url = await createPgDatabase({ seed: false })
    const result = await runCliAsync(['pull', '--base-url', source.url, '--since', '2026-11-15', '--rate', '500', '--db', url], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const expected = source.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-11-15T00:00:00.000Z'").pluck().get() as number
    expect(expected).toBeGreaterThan(1000)
    expect(result.stdout).toContain(`call logs        ${expected.toLocaleString('en-US')} fetched since 2026-11-15T00:00:00.000Z`)
    expect(result.stdout).toMatch(/tenants {10}3 fetched/)
    const info = await runCliAsync(['db', 'info', '--json', '--db', url])
    expect((JSON.parse(info.stdout) as { counts: Record<string, number> }).counts).toMatchObject({ call_logs: expected, tenants: 0, pulled_tenants: 3, pulls: 1 })
  }, 120_000)
})
