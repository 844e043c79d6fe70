import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema, type CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { detailsFacetInputSchema } from '../../../src-shared/schemas/call-log-facets'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { createCallLogsService } from './call-logs.service'
import { comboCountsQuery, countByQuery, countValueQuery, type FacetColumn } from './call-logs.search.repo'
import { recentDetails } from './call-logs.facets.repo'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantB: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
const AGENT3 = '33333333-3333-4333-8333-333333333333'
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

let handle: DatabaseHandle
let service: ReturnType<typeof createCallLogsService>
const filter = (f: CallLogFilterInput = {}) => callLogFilterSchema.parse(f)
const counts = (list: Array<{ value: unknown; count: number }>) => list.map((c) => [c.value, c.count])

/*
 * Nine lines one minute apart from 10:00: tenant Acme (agents Aria ×3, Mateo ×2, none ×1), tenant
 * Beta (agent Nova ×2), and one Acme line of agent ARIA (another agent, Aria's name in capitals).
 */
const LINES: Array<Record<string, unknown>> = [
  { agent_id: IDS.agent, log_level: 'info', log_type: 'llm', details: '{"provider":"groq","status":200,"cached":true}' },
  { agent_id: IDS.agent, log_level: 'error', log_type: 'llm', details: '{"provider":"openai","status":429,"cached":false}' },
  { agent_id: IDS.agent, log_level: 'error', log_type: 'llm', details: '{"provider":"groq","status":"200","usage":{"tokens":5}}' },
  { agent_id: IDS.agent2, log_level: 'warning', log_type: 'stt', details: '{"provider":"deepgram","note":null}' },
  { agent_id: IDS.agent2, log_level: 'info', log_type: 'call', details: '{"tools":["a","b"]}' },
  { log_level: 'info', log_type: 'system', details: '{}' },
  { tenant_id: IDS.otherTenant, agent_id: AGENT3, log_level: 'error', log_type: 'llm', details: '{"provider":"groq","bad key":1}' },
  { tenant_id: IDS.otherTenant, agent_id: AGENT3, log_level: 'info', log_type: 'llm', details: '{"provider":"GROQ"}' },
  { agent_id: uuid(99), log_level: 'debug', log_type: 'call', details: '{"status":200.5}' },
]

beforeEach(async () => {
  handle = await migratedDb()
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Beta' }))
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo' }))
  insert(handle, 'agents', rows.agent({ id: AGENT3, tenant_id: IDS.otherTenant, name: 'Nova' }))
  insert(handle, 'agents', rows.agent({ id: uuid(99), name: 'ARIA' }))
  LINES.forEach((line, i) => {
    insert(handle, 'call_logs', rows.callLog({ id: uuid(i + 1), timestamp: `2026-11-01T10:0${i}:00.000Z`, message: `line ${i + 1}`, ...line }))
  })
  service = createCallLogsService(handle.db, handle.json)
})
afterEach(() => handle.close())

describe('tenant and agent facets', () => {
  it('counts lines by tenant and agent, with names, most first', async () => {
    const all = await service.facets(admin, filter())
    expect(all.tenants).toEqual([
      { value: IDS.tenant, name: 'Acme', nameShared: false, count: 7 },
      { value: IDS.otherTenant, name: 'Beta', nameShared: false, count: 2 },
    ])
    // The line without an agent is in no agent's count; Aria and ARIA share a name (any case).
    expect(all.agents).toEqual([
      { value: IDS.agent, name: 'Aria', nameShared: true, count: 3 },
      // Ties: by id.
      { value: AGENT3, name: 'Nova', nameShared: false, count: 2 },
      { value: IDS.agent2, name: 'Mateo', nameShared: false, count: 2 },
      { value: uuid(99), name: 'ARIA', nameShared: true, count: 1 },
    ])
  })

  it('counts under every kind of filter the same as the lines it selects', async () => {
    const errors = await service.facets(admin, filter({ levels: ['error'] }))
    expect(counts(errors.tenants)).toEqual([[IDS.tenant, 2], [IDS.otherTenant, 1]])
    expect(counts(errors.agents)).toEqual([[IDS.agent, 2], [AGENT3, 1]])
    // Level leaves its own dimension out: every level stays in sight.
    expect(counts(errors.levels)).toEqual([['info', 4], ['error', 3], ['debug', 1], ['warning', 1]])
    const byQuery = await service.facets(admin, filter({ query: 'tenant:"beta" OR agent:Mateo' }))
    expect(counts(byQuery.tenants)).toEqual([[IDS.tenant, 2], [IDS.otherTenant, 2]])
    expect(counts(byQuery.agents)).toEqual([[AGENT3, 2], [IDS.agent2, 2]])
    // A bare time range goes value by value through the indexes: same counts as grouping.
    const range = await service.facets(admin, filter({ from: '2026-11-01T10:01:00Z', to: '2026-11-01T10:06:00Z' }))
    expect(counts(range.tenants)).toEqual([[IDS.tenant, 5], [IDS.otherTenant, 1]])
    expect(counts(range.agents)).toEqual([[IDS.agent, 2], [IDS.agent2, 2], [AGENT3, 1]])
    // One pass for a query: level without the level filter, the others with it.
    const both = await service.facets(admin, filter({ levels: ['error'], query: 'tenant:acme OR tenant:beta' }))
    expect(both).toEqual({ ...errors, types: [{ value: 'llm', count: 3 }] })
    const none = await service.facets(admin, filter({ query: 'tenant:nobody' }))
    expect(none.tenants).toEqual([])
  })

  it('keeps a tenant token to its own tenant and agents', async () => {
    const own = await service.facets(tenantB, filter())
    expect(counts(own.tenants)).toEqual([[IDS.otherTenant, 2]])
    expect(counts(own.agents)).toEqual([[AGENT3, 2]])
    // Text any case is one value, as details.provider:groq finds both lines.
    expect((await service.detailsFacet(tenantB, filter(), 'provider')).values).toMatchObject([{ count: 2 }])
    expect(['GROQ', 'groq']).toContain((await service.detailsFacet(tenantB, filter(), 'provider')).values[0]!.value)
  })
})

describe('details facets', () => {
  it('lists the plain keys of recent lines that the query language can name', async () => {
    const keys = await service.detailsKeys(admin, filter())
    // usage and tools hold an object and an array; "bad key" has a space.
    expect(keys).toEqual({ keys: [{ key: 'provider', count: 6 }, { key: 'status', count: 4 }, { key: 'cached', count: 2 }, { key: 'note', count: 1 }], linesRead: 9 })
    expect((await service.detailsKeys(admin, filter({ levels: ['warning'] }))).keys).toEqual([{ key: 'note', count: 1 }, { key: 'provider', count: 1 }])
  })

  it('counts a key’s values with their JSON types, over the filter', async () => {
    const status = await service.detailsFacet(admin, filter(), 'status')
    // 200 the number and "200" the text are different values, as the store holds them.
    expect(status).toEqual({
      key: 'status',
      values: [{ value: 200, count: 1 }, { value: 200.5, count: 1 }, { value: 429, count: 1 }, { value: '200', count: 1 }],
      linesRead: 9,
      linesWithKey: 4,
      sampled: false,
    })
    expect(counts((await service.detailsFacet(admin, filter({ levels: ['error'] }), 'provider')).values)).toEqual([['groq', 2], ['openai', 1]])
    expect(counts((await service.detailsFacet(admin, filter(), 'cached')).values)).toEqual([[false, 1], [true, 1]])
    expect(counts((await service.detailsFacet(admin, filter(), 'note')).values)).toEqual([[null, 1]])
    expect(counts((await service.detailsFacet(admin, filter(), 'usage.tokens')).values)).toEqual([[5, 1]])
    // An indexed key (0019) over a bare range: every line counted from its index, text in any case as one.
    const provider = await service.detailsFacet(admin, filter(), 'provider')
    expect({ ...provider, values: provider.values.map((v) => [String(v.value).toLowerCase(), v.count]) }).toEqual({
      key: 'provider',
      values: [['groq', 4], ['deepgram', 1], ['openai', 1]],
      linesRead: 9,
      linesWithKey: 6,
      sampled: false,
    })
    // A key that holds an array has no plain value to count, but the lines that have it are said.
    expect(await service.detailsFacet(admin, filter(), 'tools')).toMatchObject({ values: [], linesWithKey: 1 })
  })

  it('refuses a key the query language cannot name', () => {
    for (const key of ['bad key', '', 'a..b', "x') or 1=1 --"]) expect(detailsFacetInputSchema.safeParse({ filter: {}, key }).success).toBe(false)
    expect(detailsFacetInputSchema.safeParse({ filter: {}, key: 'usage.tokens' }).success).toBe(true)
  })
})

describe('facet query plans', () => {
  const explain = (compiled: { sql: string; parameters: readonly unknown[] }) =>
    handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
  const INDEX: Record<FacetColumn, string> = {
    log_level: 'call_logs_level_timestamp',
    log_type: 'call_logs_type_timestamp',
    tenant_id: 'call_logs_tenant_timestamp',
    agent_id: 'call_logs_agent_timestamp',
  }

  it('counts each value of a time range with one range search of its index', () => {
    for (const [column, index] of Object.entries(INDEX) as Array<[FacetColumn, string]>) {
      const plan = explain(countValueQuery(handle.db, { from: '2026-11-01T10:00:00.000Z', to: '2026-11-01T11:00:00.000Z' }, column, 'x').compile())
      expect(plan).toMatch(new RegExp(`^SEARCH call_logs USING COVERING INDEX ${index} \\(\\w+=\\? AND timestamp>\\? AND timestamp<\\?\\)$`))
    }
  })

  it('groups tenants and agents along their index, without a sort or a table scan', () => {
    for (const column of ['tenant_id', 'agent_id'] as const) {
      const plan = explain(countByQuery(handle.db, { from: '2026-11-01T10:00:00.000Z' }, column).compile())
      expect(plan).toMatch(new RegExp(`INDEX ${INDEX[column]}`))
      expect(plan).not.toMatch(/USE TEMP B-TREE FOR GROUP BY|SCAN call_logs$/)
    }
  })

  it('groups a narrow filter once, along its index', () => {
    const plan = explain(comboCountsQuery(handle.db, { agentId: IDS.agent, levels: ['error'] }).compile())
    expect(plan).toMatch(/^SEARCH call_logs USING INDEX call_logs_agent_timestamp \(agent_id=\?\)/)
  })

  it('reads the details sample newest first from the time index, stopping at the limit', () => {
    const plan = explain(recentDetails(handle.db, {}, 10_000).compile())
    expect(plan).toMatch(/^SCAN call_logs USING INDEX call_logs_timestamp$/)
  })
})
