import { llmProviderIds } from '../../src-main/modules/providers/catalog'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createService, type Service } from '../../src-main/service'
import { createAppRouter } from '../../src-main/server/app-router'
import { createCallerFactory } from '../../src-main/kit/trpc'
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy'
import { groundTruth } from '../helpers/ground-truth'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

const SINCE = '2026-10-01'
/** Fast settings for loopback: no pacing to speak of, short backoff. */
const QUICK = { rate: 1000, backoffMs: 5, retries: 2 }
/**
 * How the call logs are stored: window by window on the pull's thread, or loaded in bulk with the
 * windows fetched and checked on the fetch worker (pull-call-logs.ts). Both must behave the same.
 */
const MODES = [['window by window', false], ['in bulk, fetched on a worker', 'auto']] as const

let remote: TestServer
let proxy: FaultProxy
let local: Service
/** The test's own connection to the local store (the service's writer is on its own thread). */
let localTruth: BetterSqlite3.Database

const remoteRows = (query: string, ...params: unknown[]) => remote.sqlite.prepare(query).all(...params)
const localRows = (query: string, ...params: unknown[]) => localTruth.prepare(query).all(...params)
const count = (rows: unknown[]) => rows.length
const admin = { role: 'admin', tenantId: null, tokenId: null } as const
const LOG_COLUMNS = 'id, tenant_id, log_type, log_level, message, timestamp, agent_id, session_id, call_id, user_id, trace_id, request_id, details'

beforeAll(async () => {
  remote = await startTestServer()
  proxy = await startFaultProxy(remote.url)
})
afterAll(async () => {
  await proxy.close()
  await remote.close()
})

const freshLocal = async () => {
  local = await createService({ dbPath: join(tempDir(), 'local.sqlite'), seedNewDatabase: false })
  localTruth = groundTruth(local.handle.path)
}
afterEach(async () => {
  proxy.setFault(() => undefined)
  proxy.requests.length = 0
  localTruth?.close()
  await local?.close()
})

describe('pull from a live backend', () => {
  it('copies tenants, call logs, sessions, squad analytics and SIP trunks as the remote serves them', async () => {
    await freshLocal()
    const report = await local.pulls.pull({ baseUrl: `${remote.url}/`, token: ADMIN_TOKEN, since: SINCE, ...QUICK })
    expect(report).toMatchObject({ status: 'completed', failure: null, errors: [], source: remote.url, retries: 0 })

    const since = new Date(`${SINCE}T00:00:00Z`).toISOString()
    const expected = remoteRows(`select ${LOG_COLUMNS} from call_logs where timestamp >= ? order by id`, since)
    expect(expected.length).toBeGreaterThan(10_000)
    expect(localRows(`select ${LOG_COLUMNS} from call_logs order by id`)).toEqual(expected)
    expect(report.counts.callLogs).toMatchObject({ fetched: expected.length, inserted: expected.length, duplicates: 0, invalid: 0 })
    // Windows came back under the record maximum, so none can have hidden records.
    expect(report.counts.callLogs.windows).toBeGreaterThan(expected.length / 1000)

    const withoutOrigin = (rows: unknown[]) => (rows as Array<Record<string, unknown>>).map(({ pull_id: _p, source: _s, fetched_at: _f, ...row }) => row)
    // Pulled profiles are kept apart from the store's own, keyed by their backend (migration 0018).
    expect(localRows('select id from tenants')).toEqual([])
    expect(withoutOrigin(localRows('select * from pulled_tenants order by id'))).toEqual(withoutOrigin(remoteRows('select * from tenants order by id')))
    expect(report.counts.tenants.fetched).toBe(3)

    // Stored with their source and time: each row names the pull, the pull its backend and start.
    expect(localRows('select distinct pull_id, import_id from call_logs')).toEqual([{ pull_id: report.id, import_id: null }])
    expect(localRows('select distinct pull_id, source from pulled_tenants')).toEqual([{ pull_id: report.id, source: remote.url }])
    expect(localRows('select distinct source from call_logs')).toEqual([{ source: remote.url }])
    const origin = { kind: 'pull', id: report.id, source: remote.url, at: report.startedAt }
    const someLog = (expected[0] as { id: string }).id
    expect((await local.callLogs.context(admin, someLog, 0, 0)).origin).toEqual(origin)
    const someTenant = (localRows('select id from pulled_tenants limit 1')[0] as { id: string }).id
    expect(await local.tenants.origin(admin, someTenant)).toEqual(origin)

    // Sessions as rows, in the remote's listing order (test/integration/mirror.test.ts compares the operation).
    expect(count(localRows('select 1 from pulled_sessions'))).toBe(count(remoteRows('select id from conversations')))
    const agent = (remoteRows('select agent_id from conversations group by agent_id order by count(*) desc limit 1')[0] as { agent_id: string }).agent_id
    // The remote's own listing, every page of it.
    const listed: Array<{ conversation_id: string }> = []
    for (let offset = 0; ; offset += 100) {
      const page = (await (await remote.get(`/agents/${agent}/sessions?limit=100&offset=${offset}`)).json()) as { sessions: Array<{ conversation_id: string }>; total: number }
      listed.push(...page.sessions)
      if (listed.length >= page.total) break
    }
    expect(listed.length).toBeGreaterThan(100)
    const stored = localRows('select conversation_id, created_at, updated_at, message_count, last_message_preview from pulled_sessions where agent_id = ? order by position', agent)
    expect(stored).toEqual(listed)
    expect(localRows('select source, tenant_id, pull_id from pulled_agents where id = ?', agent)).toEqual([
      { source: remote.url, tenant_id: (remoteRows('select tenant_id from agents where id = ?', agent)[0] as { tenant_id: string }).tenant_id, pull_id: report.id },
    ])

    const squads = await local.pulls.documents(report.source, 'squad_analytics')
    expect(squads.map((s) => s.key)).toEqual((remoteRows('select id from squads order by id') as Array<{ id: string }>).map((r) => r.id))
    const analytics = await (await remote.get(`/squads/${squads[0]!.key}/analytics?start_date=${report.since}&end_date=${report.until}`)).json()
    expect(JSON.parse(squads[0]!.body)).toEqual(analytics)

    const [trunks] = await local.pulls.documents(report.source, 'sip_trunks')
    const remoteTrunks = (await (await remote.get('/agents/sip/list-trunks')).json()) as { trunks: unknown[] }
    expect((JSON.parse(trunks!.body) as { trunks: unknown[] }).trunks).toEqual(remoteTrunks.trunks)

    // Every catalog provider's details, as the remote answered them.
    expect(report.counts.llmProviders).toEqual({ fetched: llmProviderIds.length, missing: 0 })
    const providers = await local.pulls.documents(report.source, 'llm_provider')
    expect(providers.map((p) => p.key)).toEqual([...llmProviderIds].sort())
    expect(JSON.parse(providers.find((p) => p.key === 'groq')!.body)).toEqual(await (await remote.get('/admin/providers/llm/groq')).json())

    // A second pull only asks for what may have changed: the call log walk restarts near its end.
    const again = await local.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, since: SINCE, ...QUICK })
    expect(again.status).toBe('completed')
    expect(again.counts.callLogs.inserted).toBe(0)
    expect(again.counts.callLogs.windows).toBeLessThanOrEqual(2)
    expect(count(localRows('select id from call_logs'))).toBe(expected.length)
    expect((await local.pulls.list()).map((p) => p.id)).toEqual([again.id, report.id])
  })

  it.each(MODES)('keeps to one tenant when asked, and fails clearly for a tenant the remote does not have (%s)', async (_, bulk) => {
    await freshLocal()
    const tenant = (remoteRows('select id from tenants order by name limit 1')[0] as { id: string }).id
    const report = await local.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, since: SINCE, tenantId: tenant.toUpperCase(), ...QUICK, bulk })
    expect(report.status).toBe('completed')
    expect(localRows('select id from pulled_tenants')).toEqual([{ id: tenant }])
    const theirs = count(remoteRows('select id from call_logs where tenant_id = ? and timestamp >= ?', tenant, `${SINCE}T00:00:00.000Z`))
    const all = count(remoteRows('select id from call_logs where timestamp >= ?', `${SINCE}T00:00:00.000Z`))
    expect(localRows('select distinct tenant_id from call_logs')).toEqual([{ tenant_id: tenant }])
    expect(report.counts.callLogs).toMatchObject({ inserted: theirs, otherTenants: all - theirs })
    const sessions = await local.pulls.documents(report.source, 'session')
    expect(sessions.length).toBe(count(remoteRows('select id from conversations where tenant_id = ?', tenant)))

    const missing = await local.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, tenantId: '00000000-0000-4000-8000-000000000000', ...QUICK, bulk })
    expect(missing).toMatchObject({ status: 'failed', requests: 1 })
    expect(missing.failure).toMatch(/tenant 00000000-0000-4000-8000-000000000000 is not on the remote.*404/)
  })

  it("fetches the sessions of a squad's members even when no call log names them", async () => {
    await freshLocal()
    const squad = (remoteRows('select id from squads order by id limit 1')[0] as { id: string }).id
    const members = (remoteRows('select agent_id from squad_members where squad_id = ? order by agent_id', squad) as Array<{ agent_id: string }>).map((m) => m.agent_id)
    expect(members.length).toBeGreaterThan(2)
    // A range with no call log at all: the squad is known only because it is asked for.
    const since = new Date(Date.now() - 60_000).toISOString()
    const report = await local.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, since, squads: [squad], ...QUICK })
    expect(report).toMatchObject({ status: 'completed', errors: [] })
    expect(report.counts.callLogs.fetched).toBe(0)
    expect(report.counts.squadAnalytics.fetched).toBe(1)
    expect((localRows('select id from pulled_agents order by id') as Array<{ id: string }>).map((a) => a.id)).toEqual(members)
    for (const agent of members) {
      const served = await local.sessions.listForAgent(admin, agent, { limit: 100, offset: 0 })
      expect(served.total, agent).toBe(count(remoteRows('select id from conversations where agent_id = ?', agent)))
    }
  })

  it.each(MODES)('retries 503 and 429 with backoff, honouring Retry-After, and spaces requests by the rate limit (%s)', async (_, bulk) => {
    await freshLocal()
    const tenant = (remoteRows('select id from tenants order by name limit 1')[0] as { id: string }).id
    let failed = 0
    proxy.setFault((request) => {
      if (!request.url.startsWith('/logs/calls') || failed >= 3) return undefined
      failed++
      return failed === 2
        ? { status: 429, body: '{"detail":"Too Many Requests"}', headers: { 'retry-after': '1' } }
        : { status: 503, body: 'upstream unavailable' }
    })
    const report = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: '2026-11-10', tenantId: tenant, rate: 25, backoffMs: 5, retries: 3, bulk })
    expect(report).toMatchObject({ status: 'completed', retries: 3 })
    expect(report.requests).toBe(proxy.requests.length)
    const expected = count(remoteRows('select id from call_logs where tenant_id = ? and timestamp >= ?', tenant, '2026-11-10T00:00:00.000Z'))
    expect(count(localRows('select id from call_logs'))).toBe(expected)
    // The 429 asked for a second: the retry after it came no sooner.
    const logs = proxy.requests.filter((r) => r.url.startsWith('/logs/calls'))
    expect(logs[2]!.at - logs[1]!.at).toBeGreaterThanOrEqual(990)
    // 25 requests a second: starts 40 ms apart. Arrival times carry this process's delays (the
    // proxy shares it with the pull, which writes between requests, and on a loaded 2-core CI
    // machine the process may wait for a core): requests that arrive while it waits are stamped
    // together when it runs again. CI saw 7 in one 200 ms window that way (2026-11-27). What must
    // hold is the pace: no burst in any 200 ms beyond 5 starts and 3 stamped late (a client
    // without a limiter sends its requests at once, two clients at the rate make 10), and the
    // whole series no faster than the rate, but for the first arrival's delay.
    const at = proxy.requests.map((r) => r.at)
    const busiest = Math.max(...at.map((t) => at.filter((u) => u >= t && u < t + 200).length))
    expect(busiest).toBeLessThanOrEqual(8)
    expect(at.length).toBeGreaterThan(5)
    expect(at.at(-1)! - at[0]!).toBeGreaterThanOrEqual((at.length - 2) * 40)
    expect(proxy.requests.every((r) => r.authorization === `Bearer ${ADMIN_TOKEN}`)).toBe(true)
  })

  it('stops when the remote keeps failing, keeps what it stored, and the next pull resumes where it stopped', async () => {
    await freshLocal()
    let sessionRequests = 0
    proxy.setFault((request) => (request.url.includes('/sessions') && ++sessionRequests > 3 ? { status: 500, body: '{"detail":"Internal Server Error"}' } : undefined))
    const first = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: SINCE, ...QUICK })
    expect(first.status).toBe('failed')
    expect(first.failure).toMatch(/GET \/agents\/[0-9a-f-]+\/sessions\?limit=100&offset=0 failed 3 times; last: 500/)
    const allLogs = count(remoteRows('select id from call_logs where timestamp >= ?', `${SINCE}T00:00:00.000Z`))
    expect(count(localRows('select id from call_logs'))).toBe(allLogs)
    const agentsDone = first.counts.sessions.agents
    expect(agentsDone).toBeGreaterThan(0)
    expect((await local.pulls.get(first.id)).status).toBe('failed')

    proxy.setFault(() => undefined)
    proxy.requests.length = 0
    const second = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: SINCE, ...QUICK })
    expect(second.status).toBe('completed')
    // Tenants, squads and the agents done before the failure are not fetched again.
    const squads = count(remoteRows('select id from squads'))
    expect(second.counts.skipped).toBe(3 + squads + agentsDone)
    expect(proxy.requests.filter((r) => r.url.startsWith('/tenants/') || r.url.startsWith('/squads/'))).toEqual([])
    expect(proxy.requests.filter((r) => r.url.startsWith('/logs/calls')).length).toBeLessThanOrEqual(2)
    const sessions = await local.pulls.documents(second.source, 'session')
    expect(sessions.length).toBe(count(remoteRows('select id from conversations')))
  })

  it.each(MODES)('fails fast when the token is refused, storing nothing (%s)', async (_, bulk) => {
    await freshLocal()
    const report = await local.pulls.pull({ baseUrl: proxy.url, token: 'not-a-token', since: SINCE, ...QUICK, bulk })
    expect(report).toMatchObject({ status: 'failed', requests: 1, retries: 0 })
    expect(report.failure).toMatch(/^the remote refused the token \(GET \/logs\/calls\?.* answered 401/)
    expect(report.failure).not.toContain('not-a-token')
    expect(count(localRows('select id from call_logs'))).toBe(0)
    expect(count(localRows('select id from pulled_tenants'))).toBe(0)
  })

  it.each(MODES)('does not trust garbage: a body that is not JSON or not the interface shape is reported, not stored (%s)', async (_, bulk) => {
    await freshLocal()
    proxy.setFault((r) => (r.url.startsWith('/logs/calls') ? { status: 200, body: '<html>maintenance</html>' } : undefined))
    const html = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: SINCE, ...QUICK, bulk })
    expect(html.status).toBe('failed')
    expect(html.failure).toMatch(/answered 200 with a body that is not JSON: "<html>maintenance/)

    proxy.setFault((r) => (r.url.startsWith('/logs/calls') ? { status: 200, body: '{"logs": []}' } : undefined))
    const object = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: SINCE, ...QUICK, bulk })
    expect(object.failure).toBe('GET /logs/calls answered an object where the interface returns an array of call logs')

    const good = { id: '7b0e4c1e-4a4d-4c5e-9b59-0d8f3f1c2a11', tenant_id: '11111111-1111-4111-8111-111111111111', log_type: 'call', log_level: 'info', message: 'kept', timestamp: '2026-11-10T10:00:00.000Z', details: {} }
    const bad = { ...good, id: '7b0e4c1e-4a4d-4c5e-9b59-0d8f3f1c2a12', log_level: 'loud' }
    let served = false
    proxy.setFault((r) => {
      if (r.url.startsWith('/logs/calls') && !served) {
        served = true
        return { status: 200, body: JSON.stringify([good, bad]) }
      }
      if (r.url.startsWith('/tenants/')) return { status: 200, body: '{"id": "11111111-1111-4111-8111-111111111111", "name": ""}' }
      return undefined
    })
    const mixed = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: '2026-11-19', ...QUICK, bulk })
    expect(mixed.status).toBe('completed')
    expect(mixed.counts.callLogs.invalid).toBe(1)
    expect(mixed.errors).toContainEqual({ step: 'call logs', reason: expect.stringMatching(/^record 7b0e4c1e-4a4d-4c5e-9b59-0d8f3f1c2a12 not stored: log_level/) })
    expect(localRows('select message from call_logs where id = ?', good.id)).toEqual([{ message: 'kept' }])
    expect(localRows('select id from call_logs where id = ?', bad.id)).toEqual([])
    expect(mixed.counts.tenants.invalid).toBeGreaterThan(0)
    expect(mixed.errors).toContainEqual({
      step: 'tenant 11111111-1111-4111-8111-111111111111',
      reason: expect.stringMatching(/^not a valid tenant, not stored: name: Too small: expected string to have >=1 characters \(got ""\); billing_plan is required; status is required \(and \d+ more\)$/),
    })
    expect(count(localRows('select id from pulled_tenants'))).toBe(0)
  })

  it.each(MODES)('keeps what real backends send: levels in other spellings, open log types and statuses, ids that are not UUIDs (%s)', async (_, bulk) => {
    await freshLocal()
    const tenant = '22222222-2222-4222-8222-222222222222'
    const line = (n: number, o: Record<string, unknown>) => ({
      id: `7b0e4c1e-4a4d-4c5e-9b59-0d8f3f1c2b${String(n).padStart(2, '0')}`, tenant_id: tenant, log_type: 'call', log_level: 'info',
      message: `line ${n}`, timestamp: `2026-11-20T10:00:0${n}.000Z`, details: {}, ...o,
    })
    const records = [
      line(1, { log_level: 'WARN', log_type: 'Call Started' }),
      line(2, { log_level: 'fatal', conversation_id: 'conv_81' }),
      line(3, { log_level: 40, user_id: 'u-7', trace_id: 'trace:9', request_id: 'req 1' }),
      line(4, { log_type: 'transfer', details: { squad_id: 'sq-eu-west' } }),
    ]
    const { pull_id: _pulled, ...profile } = remoteRows('select * from tenants limit 1')[0] as Record<string, unknown>
    const tenantBody = { ...profile, id: tenant, status: 'pending_review', meta_data: null, sip_enabled: false, recording_enabled: true, analytics_enabled: true, hipaa_enabled: false, pci_enabled: false, data_encryption_enabled: true }
    let served = false
    proxy.setFault((r) => {
      if (r.url.startsWith('/logs/calls')) {
        const body = served ? [] : records
        served = true
        return { status: 200, body: JSON.stringify(body) }
      }
      if (r.url.startsWith(`/tenants/${tenant}`)) return { status: 200, body: JSON.stringify(tenantBody) }
      if (r.url.startsWith('/squads/sq-eu-west/analytics')) return { status: 200, body: JSON.stringify({ squad_id: 'sq-eu-west', transfers: 1 }) }
      return undefined
    })
    const report = await local.pulls.pull({ baseUrl: proxy.url, token: ADMIN_TOKEN, since: '2026-11-19', ...QUICK, bulk })
    expect(report).toMatchObject({ status: 'completed' })
    expect(report.counts.callLogs).toMatchObject({ inserted: 4, invalid: 0 })
    expect(localRows('select log_type, log_level, log_level_original, user_id, trace_id, request_id from call_logs order by timestamp')).toEqual([
      { log_type: 'Call Started', log_level: 'warning', log_level_original: 'WARN', user_id: null, trace_id: null, request_id: null },
      { log_type: 'call', log_level: 'critical', log_level_original: 'fatal', user_id: null, trace_id: null, request_id: null },
      { log_type: 'call', log_level: 'error', log_level_original: '40', user_id: 'u-7', trace_id: 'trace:9', request_id: 'req 1' },
      { log_type: 'transfer', log_level: 'info', log_level_original: null, user_id: null, trace_id: null, request_id: null },
    ])
    expect(localRows('select status from pulled_tenants where id = ?', tenant)).toEqual([{ status: 'pending_review' }])
    expect(proxy.requests.map((r) => r.url)).toContainEqual(expect.stringMatching(/^\/squads\/sq-eu-west\/analytics\?/))
    expect(report.counts.squadAnalytics.fetched).toBe(1)
  })

  it.each(MODES)('can be cancelled, recording how far it got (%s)', async (_, bulk) => {
    await freshLocal()
    // Cancel once the pull has recorded progress past its third request: a signal, not a guess at timing.
    let underway!: () => void
    const pastThirdRequest = new Promise<void>((resolve) => (underway = resolve))
    const { id, done } = await local.pulls.begin({
      baseUrl: remote.url,
      token: ADMIN_TOKEN,
      since: SINCE,
      rate: 20,
      bulk,
      onProgress: (progress) => {
        if (progress.status === 'running' && progress.requests > 2) underway()
      },
    })
    await Promise.race([
      pastThirdRequest,
      done.then((report) => {
        throw new Error(`the pull ended (${report.status}) after ${report.requests} requests, before it could be cancelled`)
      }),
    ])
    expect((await local.pulls.get(id)).status).toBe('running')
    const report = await local.pulls.cancel(id)
    expect(report).toMatchObject({ status: 'cancelled', failure: 'the pull was cancelled' })
    expect(report.requests).toBeGreaterThan(2)
    expect((await local.pulls.get(id)).status).toBe('cancelled')
  })

  it('refuses bad options before asking the remote anything', async () => {
    await freshLocal()
    const base = { baseUrl: remote.url, token: ADMIN_TOKEN }
    await expect(local.pulls.pull({ ...base, baseUrl: 'ftp://example.com' })).rejects.toThrow('the base URL must be http or https, not ftp:')
    await expect(local.pulls.pull({ ...base, baseUrl: 'remote' })).rejects.toThrow('not a URL: "remote"')
    await expect(local.pulls.pull({ ...base, since: 'last week' })).rejects.toThrow('--since must be an ISO 8601 date or date-time: "last week"')
    await expect(local.pulls.pull({ ...base, tenantId: 'acme' })).rejects.toThrow('the tenant id must be a UUID: "acme"')
    await expect(local.pulls.pull({ ...base, token: ' ' })).rejects.toThrow('a token is needed to pull')
    await expect(local.pulls.pull({ ...base, squads: [''] })).rejects.toThrow('a squad id must be 1 to 255 characters: ""')
    expect(await local.pulls.list()).toEqual([])
  })
})

describe('pulls over tRPC (the console)', () => {
  const caller = (role: 'admin' | 'viewer') => createCallerFactory(createAppRouter(local))({ principal: { role, tenantId: null, tokenId: null } })

  it('starts a pull in the background and reports it through get and list; admins only', async () => {
    await freshLocal()
    const { id } = await caller('admin').pulls.start({ baseUrl: remote.url, token: ADMIN_TOKEN, since: '2026-11-18', tenantId: '', rate: 1000 })
    // The console has no callback, only get: poll it until the pull has stopped running (10 s at most).
    const report = await vi.waitUntil(
      async () => {
        const current = await caller('admin').pulls.get({ id })
        return current.status !== 'running' && current
      },
      { timeout: 10_000, interval: 50 },
    )
    expect(report.status).toBe('completed')
    expect(report.counts.callLogs.inserted).toBe(count(remoteRows("select id from call_logs where timestamp >= '2026-11-18T00:00:00.000Z'")))
    expect((await caller('admin').pulls.list()).map((p) => p.id)).toEqual([id])
    await expect(caller('viewer').pulls.list()).rejects.toMatchObject({ code: 'FORBIDDEN' })

    // What was kept as JSON can be browsed a page at a time, the same documents as stored.
    const stored = await local.pulls.documents(report.source, 'session')
    expect(stored.length).toBeGreaterThan(60)
    const first = await caller('admin').pulls.documents({ source: report.source, kind: 'session', limit: 50 })
    const second = await caller('admin').pulls.documents({ source: report.source, kind: 'session', offset: 50, limit: 50 })
    expect(first.counts).toEqual({ session: stored.length, squad_analytics: report.counts.squadAnalytics.fetched, sip_trunks: 1, llm_provider: report.counts.llmProviders.fetched })
    expect(first.total).toBe(stored.length)
    expect([...first.items, ...second.items].map((i) => i.key)).toEqual(stored.slice(0, 100).map((d) => d.key))
    expect(first.items[0]).toEqual({ key: stored[0]!.key, fetchedAt: stored[0]!.fetched_at, pullId: id, body: JSON.parse(stored[0]!.body) })
    const trunks = await caller('admin').pulls.documents({ source: report.source, kind: 'sip_trunks' })
    expect(trunks.items.map((i) => i.key)).toEqual(['*'])
    expect(await caller('admin').pulls.documents({ source: 'https://elsewhere.example', kind: 'session' })).toEqual({
      counts: { session: 0, squad_analytics: 0, sip_trunks: 0, llm_provider: 0 },
      total: 0,
      items: [],
    })
    await expect(caller('viewer').pulls.documents({ source: report.source, kind: 'session' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await expect(caller('admin').pulls.documents({ source: report.source, kind: 'calls' as never })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
    await expect(caller('admin').pulls.documents({ source: report.source, kind: 'session', limit: 0 })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })

  it('answers BAD_REQUEST with the reason for bad input, and starts nothing', async () => {
    await freshLocal()
    await expect(caller('admin').pulls.start({ baseUrl: 'remote', token: 'x' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('starting with http:// or https://') })
    await expect(caller('admin').pulls.start({ baseUrl: remote.url, token: 'x', since: 'tomorrow-ish' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      message: '--since must be an ISO 8601 date or date-time: "tomorrow-ish"',
    })
    expect(await caller('admin').pulls.list()).toEqual([])
  })
})
