import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmCatalog } from '../../src-main/modules/providers/catalog'
import { bearer, startTestServer, type TestServer } from '../helpers/test-server'
import { rawAnswer, type RawAnswer } from '../helpers/raw-answer'

/*
 * Parity (issue 20): the same demo rows in a SQLite store and a PostgreSQL store (the PostgreSQL
 * template database is a COPY of the SQLite template, test/pg-global-setup.ts), each behind the
 * real listener, and every operation of the spec asked the same questions of both: every status,
 * content type and body must be the same, byte for byte. Asked as an admin and as a tenant token,
 * for every tenant, agent and squad, with limits, offsets, periods, and bad input (404, 422).
 */

let sqlite: TestServer
let postgres: TestServer
/** The same role's token on each server (tokens are secrets of their store), by name. */
const tokens = new Map<string, { sqlite: string; postgres: string }>()
let tenantIds: string[] = []
let agentIds: string[] = []
let squadIds: string[] = []

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
  tenantIds = (await sqlite.service.db.selectFrom('tenants').select('id').orderBy('id').execute()).map((r) => r.id)
  agentIds = (await sqlite.service.db.selectFrom('agents').select('id').orderBy('id').execute()).map((r) => r.id)
  squadIds = (await sqlite.service.db.selectFrom('squads').select('id').orderBy('id').execute()).map((r) => r.id)
  for (const tenantId of tenantIds) {
    const pair = { sqlite: '', postgres: '' }
    for (const [store, server] of [['sqlite', sqlite], ['postgres', postgres]] as const) {
      pair[store] = (await server.service.tokens.create({ name: 'parity', role: 'tenant', tenantId })).token
    }
    tokens.set(tenantId, pair)
  }
})

afterAll(async () => {
  await Promise.all([sqlite?.close(), postgres?.close()])
})

type Answer = RawAnswer

const ask = rawAnswer

/**
 * The body with the named fields' values replaced: fields that say when the answer was made
 * (a key check's latency, when a trunk list was read), which differ between any two requests.
 */
function masked(body: string, fields: readonly string[]): string {
  return fields.reduce((text, field) => text.replace(new RegExp(`"${field}":("[^"]*"|[0-9.]+)`, 'g'), `"${field}":"(volatile)"`), body)
}

/** Asks both servers; the answers must be identical. Returns SQLite's, for checks of its own. */
async function same(path: string, init: { tenant?: string; method?: string; body?: unknown; volatile?: readonly string[] } = {}): Promise<Answer> {
  const request = (store: 'sqlite' | 'postgres'): RequestInit => {
    const headers: Record<string, string> = init.tenant ? bearer(tokens.get(init.tenant)![store]) : {}
    if (init.body !== undefined) headers['Content-Type'] = 'application/json'
    return { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }
  }
  const [a, b] = await Promise.all([ask(sqlite, path, request('sqlite')), ask(postgres, path, request('postgres'))])
  if (init.volatile) {
    // Masked only where it is there: a field that is never present is a mistake in the test.
    for (const field of init.volatile) expect(a.body).toContain(`"${field}":`)
    a.body = masked(a.body, init.volatile)
    b.body = masked(b.body, init.volatile)
  }
  // The path in the message says which question differed.
  expect({ path, ...b }).toEqual({ path, ...a })
  return a
}

const UNKNOWN = '0b8c7a3e-0000-4000-8000-000000000000'

describe('parity of SQLite and PostgreSQL over the listener', () => {
  it('GET /tenants/{tenant_id}', async () => {
    expect(tenantIds.length).toBeGreaterThan(1)
    for (const id of tenantIds) {
      expect((await same(`/tenants/${id}`)).status).toBe(200)
      // A tenant token sees its own tenant, and another's is not found.
      await same(`/tenants/${id}`, { tenant: id })
      await same(`/tenants/${id}`, { tenant: tenantIds.find((t) => t !== id) })
    }
    expect((await same(`/tenants/${UNKNOWN}`)).status).toBe(404)
    expect((await same('/tenants/not-a-uuid')).status).toBe(422)
  })

  it('GET /agents/{agent_id}/sessions', async () => {
    expect(agentIds.length).toBeGreaterThan(5)
    for (const id of agentIds) {
      const first = await same(`/agents/${id}/sessions`)
      expect(first.status).toBe(200)
      const { total } = JSON.parse(first.body) as { total: number }
      for (const query of ['?limit=1', '?limit=100', '?limit=7&offset=3', `?limit=5&offset=${Math.max(0, total - 2)}`, `?offset=${total + 5}`]) {
        await same(`/agents/${id}/sessions${query}`)
      }
      for (const tenant of tenantIds) await same(`/agents/${id}/sessions?limit=2`, { tenant })
    }
    expect((await same(`/agents/${UNKNOWN}/sessions`)).status).toBe(404)
    for (const bad of ['?limit=0', '?limit=101', '?offset=-1', '?limit=abc']) {
      expect((await same(`/agents/${agentIds[0]}/sessions${bad}`)).status).toBe(422)
    }
  })

  it('GET /logs/calls', async () => {
    const all = await same('/logs/calls?limit=1000')
    expect(JSON.parse(all.body)).toHaveLength(1000)
    for (const query of ['', '?limit=1', '?start_date=2026-11-01', '?end_date=2026-11-10T12:00:00Z&limit=300', '?start_date=2026-11-05&end_date=2026-11-06&limit=1000']) {
      await same(`/logs/calls${query}`)
    }
    for (const id of agentIds) await same(`/logs/calls?agent_id=${id}&limit=200`)
    for (const tenant of tenantIds) {
      await same('/logs/calls?limit=500', { tenant })
      await same(`/logs/calls?agent_id=${agentIds[0]}&limit=50`, { tenant })
    }
    // Nothing matches: an empty array on both.
    expect((await same(`/logs/calls?agent_id=${UNKNOWN}`)).body).toBe('[]')
    for (const bad of ['?limit=0', '?limit=1001', '?start_date=yesterday', '?agent_id=nope']) {
      expect((await same(`/logs/calls${bad}`)).status).toBe(422)
    }
  })

  it('GET /squads/{squad_id}/analytics', async () => {
    expect(squadIds.length).toBeGreaterThan(0)
    const periods = ['?start_date=2026-10-01&end_date=2026-11-30', '?start_date=2026-11-18&end_date=2026-11-19', '?start_date=2026-11-19T13:30:00Z&end_date=2026-11-19T15:10:00.5Z', '?start_date=2020-01-01&end_date=2020-01-02', '?start_date=2016-01-01&end_date=2026-12-31']
    for (const id of squadIds) {
      for (const period of periods) expect((await same(`/squads/${id}/analytics${period}`)).status).toBe(200)
      for (const tenant of tenantIds) await same(`/squads/${id}/analytics${periods[0]}`, { tenant })
    }
    expect((await same(`/squads/${UNKNOWN}/analytics`)).status).toBe(404)
    expect((await same(`/squads/${squadIds[0]}/analytics?start_date=soon`)).status).toBe(422)
  })

  it('GET /admin/providers/llm/{provider}', async () => {
    for (const { id } of llmCatalog.providers) {
      expect((await same(`/admin/providers/llm/${id}`)).status).toBe(200)
      for (const tenant of tenantIds) await same(`/admin/providers/llm/${id}`, { tenant })
    }
    expect((await same('/admin/providers/llm/no-such-provider')).status).toBe(422)
  })

  it('POST /admin/providers/validate/stt', async () => {
    const bodies = [
      { provider: 'deepgram', provider_type: 'stt', voice_id: 'x', model: 'nova-3' },
      { provider: 'deepgram', model: 'no-such-model' },
      { provider: 'nobody', provider_type: 'stt', model: 'x' },
      { provider: 'deepgram', provider_type: 'tts', model: 'nova-3' },
    ]
    for (const body of bodies) await same('/admin/providers/validate/stt?online=false', { method: 'POST', body, volatile: ['latency_ms'] })
    expect((await same('/admin/providers/validate/stt', { method: 'POST', body: { provider: 7 } })).status).toBe(422)
  })

  it('GET /agents/sip/list-trunks', async () => {
    const answer = await same('/agents/sip/list-trunks', { volatile: ['fetched_at'] })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).trunks.length).toBeGreaterThan(1)
    for (const tenant of tenantIds) await same('/agents/sip/list-trunks', { tenant, volatile: ['fetched_at'] })
  })
})
