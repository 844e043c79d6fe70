import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmCatalog } from '../../src-main/modules/providers/catalog'
import { dataOf, StorePair, STORES, type Store } from '../helpers/store-pair'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Parity of the console's other reads (issue 20 pt 1): agents, tenants, sessions and
 * conversations, squads, providers, SIP trunks, sources and settings, over tRPC on a SQLite and a
 * PostgreSQL store holding the same demo rows, and the same pull of one tenant from a third
 * Callscope (so each store also holds pulled tenants, agents, sessions, squad analytics and
 * trunks, read with the console's source picker). Asked as the admin, as tenant tokens and
 * limited to one source; compared as test/helpers/store-pair.ts says.
 */

let remote: TestServer
let pair: StorePair
let tenantIds: string[] = []
let agentIds: string[] = []
let squadIds: string[] = []
let conversationIds: string[] = []
/** The pulled tenant, and what the pull stored of it: agents, squads, sessions. */
let pulledTenant = ''
let pulledAgentIds: string[] = []
let pulledSquadIds: string[] = []
let pulledConversationIds: string[] = []
const tokens = new Map<string, Record<Store, string>>()

beforeAll(async () => {
  const [sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
  remote = await startTestServer()
  pair = new StorePair({ sqlite, postgres })
  const db = sqlite.service.db
  tenantIds = (await db.selectFrom('tenants').select('id').orderBy('id').execute()).map((r) => r.id)
  agentIds = (await db.selectFrom('agents').select('id').orderBy('id').execute()).map((r) => r.id)
  squadIds = (await db.selectFrom('squads').select('id').orderBy('id').execute()).map((r) => r.id)
  conversationIds = (await db.selectFrom('conversations').select('id').orderBy('created_at', 'desc').orderBy('id').limit(25).execute()).map((r) => r.id)
  pulledTenant = tenantIds[1]!
  // The same pull into both stores, one after the other: the same source URL, the same rows.
  const pulls = {} as Record<Store, string>
  for (const store of STORES) {
    const report = await pair.servers[store].service.pulls.pull({ baseUrl: remote.url, token: ADMIN_TOKEN, tenantId: pulledTenant, since: '2026-11-19', rate: 1000, backoffMs: 5, retries: 2 })
    expect(report, store).toMatchObject({ status: 'completed', failure: null, errors: [] })
    pulls[store] = report.id
  }
  pair.label('pull', pulls)
  pulledAgentIds = (await db.selectFrom('pulled_agents').select('id').distinct().orderBy('id').execute()).map((r) => r.id)
  pulledSquadIds = (await db.selectFrom('pulled_squad_analytics').select('squad_id').distinct().orderBy('squad_id').execute()).map((r) => r.squad_id)
  pulledConversationIds = (await db.selectFrom('pulled_sessions').select('conversation_id').orderBy('conversation_id').limit(10).execute()).map((r) => r.conversation_id)
  for (const tenantId of tenantIds.slice(0, 3)) {
    const token = {} as Record<Store, string>
    for (const store of STORES) token[store] = (await pair.servers[store].service.tokens.create({ name: 'parity', role: 'tenant', tenantId })).token
    tokens.set(tenantId, token)
  }
}, 300_000)

afterAll(async () => {
  await Promise.all([pair?.servers.sqlite.close(), pair?.servers.postgres.close(), remote?.close()])
})

const UNKNOWN = '0b8c7a3e-0000-4000-8000-000000000000'
const source = () => remote.url.replace(/\/+$/, '')

describe('the console\'s reads on SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  it('the pull stored something of every kind on both (else the pulled reads below compare nothing)', () => {
    expect(pulledAgentIds.length).toBeGreaterThan(1)
    expect(pulledSquadIds.length).toBeGreaterThan(0)
    expect(pulledConversationIds.length).toBeGreaterThan(1)
  })

  it('agents: the list (filters, search, tenant tokens, each source) and every agent\'s detail', async () => {
    const all = await pair.query<Array<{ id: string; name: string | null }>>('agents.list')
    expect(all.length).toBe(agentIds.length)
    const name = all.find((a) => a.name)!.name!
    const inputs = [undefined, { tenantId: tenantIds[0] }, { search: name.slice(0, 3) }, { search: name.slice(0, 3).toUpperCase() }, { search: agentIds[0]!.slice(0, 6) }, { search: 'zzz-nobody' }, { tenantId: UNKNOWN }]
    for (const input of inputs) {
      await pair.query('agents.list', input)
      for (const token of tokens.values()) await pair.query('agents.list', input, { token })
    }
    const pulled = await pair.query<Array<{ id: string; pulled: unknown; name: string | null }>>('agents.list', undefined, { source: source() })
    expect(pulled.map((a) => a.id).sort()).toEqual(pulledAgentIds)
    expect(pulled.every((a) => a.pulled !== null)).toBe(true)
    // Pulled squad analytics name their members: the pulled agents' names come from there.
    expect(pulled.filter((a) => a.name !== null).length).toBeGreaterThan(0)
    await pair.query('agents.list', { search: pulled.find((a) => a.name)!.name!.slice(0, 4) }, { source: source() })
    await pair.query('agents.list', undefined, { source: 'local' })
    for (const id of agentIds) await pair.query('agents.get', { agentId: id })
    for (const id of pulledAgentIds) expect(await pair.query('agents.get', { agentId: id }, { source: source() })).toMatchObject({ kind: 'pulled' })
    for (const token of tokens.values()) for (const id of agentIds.slice(0, 6)) await pair.same(`/trpc/agents.get?input=${encodeURIComponent(JSON.stringify({ agentId: id }))}`, { token })
    expect(await pair.refused('agents.get', { agentId: UNKNOWN })).toBe(404)
  })

  it('tenants: the list (search, tokens, sources), detail, usage and origin', async () => {
    const all = await pair.query<Array<{ id: string; name: string; source: string }>>('tenants.list')
    // The pulled tenant is listed twice: its local row and the pull's.
    expect(all.length).toBe(tenantIds.length + 1)
    for (const input of [{ search: all[0]!.name.slice(0, 4).toLowerCase() }, { search: tenantIds[2]!.slice(0, 5) }, { search: 'nobody' }]) await pair.query('tenants.list', input)
    for (const token of tokens.values()) await pair.query('tenants.list', undefined, { token })
    for (const from of [source(), 'local']) await pair.query('tenants.list', undefined, { source: from })
    for (const id of tenantIds) {
      for (const procedure of ['tenants.get', 'tenants.usage', 'tenants.origin']) await pair.query(procedure, { tenantId: id })
    }
    expect(await pair.query('tenants.origin', { tenantId: pulledTenant }, { source: source() })).not.toBeNull()
    await pair.query('tenants.get', { tenantId: pulledTenant }, { source: source() })
    for (const [tenant, token] of tokens) {
      await pair.query('tenants.usage', { tenantId: tenant }, { token })
      expect(await pair.refused('tenants.get', { tenantId: tenantIds.find((t) => t !== tenant) }, { token })).toBe(404)
    }
    expect(await pair.refused('tenants.get', { tenantId: UNKNOWN })).toBe(404)
  })

  it('sessions and conversations: every agent\'s pages, pulled listings, and conversations with their messages', async () => {
    for (const id of agentIds) {
      const first = await pair.query<{ total: number }>('sessions.listForAgent', { agentId: id, limit: 20 })
      for (const page of [{ limit: 3, offset: 2 }, { limit: 100, offset: Math.max(0, first.total - 2) }]) await pair.query('sessions.listForAgent', { agentId: id, ...page })
    }
    for (const id of pulledAgentIds) expect((await pair.query<{ total: number }>('sessions.listForAgent', { agentId: id, limit: 50 }, { source: source() })).total).toBeGreaterThan(0)
    for (const token of tokens.values()) await pair.same(`/trpc/sessions.listForAgent?input=${encodeURIComponent(JSON.stringify({ agentId: agentIds[0], limit: 5 }))}`, { token })
    expect(conversationIds.length).toBe(25)
    let messages = 0
    for (const id of [...conversationIds, ...pulledConversationIds]) {
      const answer = await pair.same(`/trpc/conversations.get?input=${encodeURIComponent(JSON.stringify({ conversationId: id }))}`)
      if (answer.sqlite.status === 200) messages += (answer.sqlite.body as { result: { data: { messages: unknown[] } } }).result.data.messages.length
    }
    expect(messages).toBeGreaterThan(50)
    for (const token of tokens.values()) for (const id of conversationIds.slice(0, 5)) await pair.same(`/trpc/conversations.get?input=${encodeURIComponent(JSON.stringify({ conversationId: id }))}`, { token })
  })

  it('squads: the list (tokens, sources) and the analytics over tRPC, computed and pulled', async () => {
    const listed = await pair.query<unknown[]>('squads.list')
    expect(listed.length).toBe(squadIds.length)
    for (const token of tokens.values()) await pair.query('squads.list', undefined, { token })
    expect((await pair.query<unknown[]>('squads.list', undefined, { source: source() })).length).toBe(pulledSquadIds.length)
    const periods = [{ start_date: '2026-10-01', end_date: '2026-11-30' }, { start_date: '2026-11-18', end_date: '2026-11-19' }, { start_date: '2026-11-19T13:30:00Z', end_date: '2026-11-19T15:10:00.5Z' }]
    for (const id of squadIds) {
      for (const period of periods) await pair.query('squads.analytics', { squadId: id, ...period })
      for (const token of tokens.values()) await pair.same(`/trpc/squads.analytics?input=${encodeURIComponent(JSON.stringify({ squadId: id, ...periods[0] }))}`, { token })
    }
    // Without dates, a pulled squad answers the source's own default period, the last 30 days as of
    // each store's pull (ab8f107): the two stores pulled seconds apart, so its bounds and length differ.
    for (const id of pulledSquadIds) {
      expect(await pair.query('squads.analytics', { squadId: id }, { source: source(), volatile: ['hours', 'start', 'end', 'periodStart', 'periodEnd'] })).toMatchObject({ pulled: { source: source() } })
    }
    expect(await pair.refused('squads.analytics', { squadId: UNKNOWN })).toBe(404)
  })

  it('providers, SIP trunks, sources and settings', async () => {
    await pair.query('providers.catalog')
    for (const { id } of llmCatalog.providers) {
      await pair.query('providers.llmDetails', { provider: id })
      await pair.query('providers.llmDetails', { provider: id }, { source: source() })
    }
    for (const body of [{ provider: 'deepgram', provider_type: 'stt', voice_id: 'x', model: 'nova-3' }, { provider: 'deepgram', model: 'no-such' }]) {
      await pair.mutate('providers.validateStt', { ...body, online: false }, { volatile: ['latency_ms'] })
    }
    for (const from of [undefined, source(), 'local']) await pair.query('sipTrunks.list', undefined, { source: from })
    for (const token of tokens.values()) {
      await pair.query('sipTrunks.list', undefined, { token })
      expect(await pair.refused('providers.catalog', undefined, { token })).toBe(403)
      expect(await pair.refused('settings.info', undefined, { token })).toBe(403)
    }
    const sources = await pair.query<{ sources: Array<{ name: string }> }>('sources.list')
    expect(sources.sources.map((s) => s.name)).toEqual(['local', source()])
    await pair.query('sources.list', undefined, { source: source() })
    // The store's location, kind, size and schema (each store has its own list of migrations) are
    // each store's own, and each is migrated to its latest; the row counts are compared.
    const info = await pair.same('/trpc/settings.info', { volatile: ['path', 'kind', 'sizeBytes', 'schema'] })
    for (const store of STORES) {
      const { database } = dataOf<{ database: { kind: string; schema: { applied: number; available: number } } }>(info[store])
      expect(database.kind).toBe(store)
      expect(database.schema.applied).toBe(database.schema.available)
    }
    const { counts } = dataOf<{ database: { counts: Record<string, number> } }>(info.sqlite).database
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(1000)
  })
})
