import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import { NotFoundError } from '../../kit/errors'
import type { Principal } from '../../kit/access'
import { llmCatalog, llmProviderIds } from './catalog'
import { createProvidersService } from './providers.service'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantOnly: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'x' }
const OTHER_AGENT = '99999999-9999-4999-8999-999999999999'

describe('LLM provider details', () => {
  let handle: DatabaseHandle
  let env: NodeJS.ProcessEnv = {}
  let providers: ReturnType<typeof createProvidersService>
  beforeAll(async () => {
    handle = await migratedDb()
    insert(handle, 'tenants', rows.tenant())
    insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
    insert(handle, 'agents', rows.agent())
    insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo', llm_provider: 'anthropic', llm_model: 'claude-sonnet-4-5-20250929' }))
    insert(handle, 'agents', rows.agent({ id: OTHER_AGENT, tenant_id: IDS.otherTenant, name: 'Zed' }))
    providers = createProvidersService(handle.db, { dbPath: ':memory:', env: () => env })
  })
  afterAll(() => handle.close())

  it('lists the catalog ids in order', () => {
    expect(llmProviderIds).toEqual(['openai', 'anthropic', 'google', 'groq', 'azure_openai', 'mistral', 'deepseek', 'cerebras'])
  })

  it('describes a provider from the catalog with its models', async () => {
    const details = await providers.llmDetails(admin, 'openai')
    const entry = llmCatalog.providers[0]!
    expect(details).toMatchObject({
      provider: 'openai',
      display_name: entry.display_name,
      description: entry.description,
      api_base_url: 'https://api.openai.com/v1',
      docs_url: entry.docs_url,
      catalog_version: llmCatalog.catalog_version,
    })
    expect(details.models.map((m) => m.id)).toEqual(entry.models.map((m) => m.id))
    expect(details.models[0]).toEqual({
      id: 'gpt-4o', display_name: 'GPT-4o', context_window: 128000, max_output_tokens: 16384, supports_tools: true,
      supports_streaming: true, supports_vision: true, input_price_per_mtok: 2.5, output_price_per_mtok: 10, released: '2024-05-13',
    })
  })

  it('gives every model of every provider a boolean vision flag and a nullable release date', async () => {
    for (const id of llmProviderIds) {
      const details = await providers.llmDetails(admin, id)
      for (const m of details.models) {
        expect(typeof m.supports_vision).toBe('boolean')
        expect(m.released === null || /^\d{4}-\d{2}-\d{2}$/.test(m.released)).toBe(true)
      }
    }
  })

  it('counts the agents using it; a tenant principal sees only its own', async () => {
    expect((await providers.llmDetails(admin, 'openai')).agents).toEqual({ count: 2, ids: [OTHER_AGENT, IDS.agent].sort() })
    expect((await providers.llmDetails(tenantOnly, 'openai')).agents).toEqual({ count: 1, ids: [IDS.agent] })
    expect((await providers.llmDetails(admin, 'anthropic')).agents).toEqual({ count: 1, ids: [IDS.agent2] })
    expect((await providers.llmDetails(admin, 'cerebras')).agents).toEqual({ count: 0, ids: [] })
  })

  it('finds the agents through the llm_provider index', () => {
    const plan = handle.sqlite.prepare("explain query plan select id from agents where llm_provider = ? order by id").all('openai') as Array<{ detail: string }>
    expect(plan.map((p) => p.detail).join(' | ')).toMatch(/USING (COVERING )?INDEX agents_llm_provider/)
  })

  it('reports credentials masked: none, environment, stored', async () => {
    const key = 'sk-proj-abcdefghijklmnopqrstuvwxyz0123'
    expect((await providers.llmDetails(admin, 'openai')).credentials).toEqual({
      configured: false, source: null, key_hint: null, env_var: 'OPENAI_API_KEY', base_url: null,
    })
    env = { OPENAI_API_KEY: key }
    expect((await providers.llmDetails(admin, 'openai')).credentials).toMatchObject({ configured: true, source: 'environment', key_hint: 'sk-…0123' })
    await providers.credentials.set({ kind: 'llm', provider: 'openai', key: 'sk-stored-abcdefghijklmnopqrstuvwxyzQRST' })
    const details = await providers.llmDetails(admin, 'openai')
    expect(details.credentials).toMatchObject({ configured: true, source: 'stored', key_hint: 'sk-…QRST' })
    expect(JSON.stringify(details)).not.toContain(key)
    expect(JSON.stringify(details)).not.toContain('sk-stored-abcdefghijklmnopqrstuvwxyzQRST')
  })

  it('raises NotFoundError for an id the catalog does not have (the transports validate first)', async () => {
    await expect(providers.llmDetails(admin, 'nope')).rejects.toBeInstanceOf(NotFoundError)
  })

  it('answers on a mirror with the details a pull fetched, whole, unless the store has its own agent or key for the provider', async () => {
    const pulled = (provider: string, body: object, fetchedAt: string, source = 'http://prod:8080') =>
      handle.sqlite
        .prepare("insert into pulled_llm_providers (source, provider, body, fetched_at, pull_id) values (?, ?, ?, ?, 'p1')")
        .run(source, provider, JSON.stringify(body), fetchedAt)
    const remote = { ...(await providers.llmDetails(admin, 'mistral')), agents: { count: 4, ids: ['a-1', 'a-2', 'a-3', 'a-4'] } }
    const { pulled: _none, ...remoteBody } = remote
    pulled('mistral', { ...remoteBody, agents: { count: 1, ids: ['old'] } }, '2026-11-19T00:00:00.000Z', 'http://staging:8080')
    pulled('mistral', remoteBody, '2026-11-20T00:00:00.000Z')
    pulled('anthropic', remoteBody, '2026-11-20T00:00:00.000Z')
    expect(await providers.llmAnswer(admin, 'mistral')).toEqual({
      kind: 'pulled',
      json: JSON.stringify(remoteBody),
      pulled: { source: 'http://prod:8080', fetchedAt: '2026-11-20T00:00:00.000Z' },
    })
    expect(await providers.llmDetails(admin, 'mistral')).toEqual({ ...remoteBody, pulled: { source: 'http://prod:8080', fetchedAt: '2026-11-20T00:00:00.000Z' } })
    // An agent of this store uses anthropic: its own answer, not the pulled one.
    expect(await providers.llmAnswer(admin, 'anthropic')).toMatchObject({ kind: 'computed', details: { agents: { count: 1, ids: [IDS.agent2] } } })
    // A key of its own for mistral: its own answer.
    env = { MISTRAL_API_KEY: 'abcdefghijklmnopqrstuvwxyz012345' }
    expect(await providers.llmAnswer(admin, 'mistral')).toMatchObject({ kind: 'computed', details: { credentials: { configured: true } } })
    env = {}
    // Details in a shape the console cannot draw are refused by the console's query with the reason, served whole by REST.
    pulled('deepseek', { name: 'deepseek', models: 'many' }, '2026-11-20T00:00:00.000Z')
    expect(await providers.llmAnswer(admin, 'deepseek')).toMatchObject({ kind: 'pulled', json: '{"name":"deepseek","models":"many"}' })
    await expect(providers.llmDetails(admin, 'deepseek')).rejects.toThrow(/not in a shape the console can draw/)
  })
})
