import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callLogFilterSchema } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { createCallLogsService } from './call-logs.service'
import { pageQuery } from './call-logs.search.repo'
import { resolveFilter } from './call-logs.search'
import { INDEXED_DETAILS_KEYS, isIndexedDetailsPath, prefixUpperBound } from './details-values'
import { compileLogQuery, LogQuerySyntaxError } from './log-query'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantB: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const C1 = 'call-one'

/** Line n is at 10:(n-1); tenant Acme and no agent unless said. */
const LINES: Array<Record<string, unknown>> = [
  { message: 'LLM request failed after 2 attempts: groq timeout', log_type: 'llm', log_level: 'error', agent_id: IDS.agent, call_id: C1, trace_id: 'tr-1', session_id: 's-1', user_id: 'u-1', request_id: 'r-1', details: '{"provider":"groq","latency_ms":2500,"error":"timeout"}' },
  { message: 'LLM request timed out after 10000 ms', log_type: 'llm', log_level: 'warning', agent_id: IDS.agent, details: '{"provider":"openai","latency_ms":1500}' },
  { message: 'Rate limit reached, retrying', log_type: 'stt', log_level: 'warning', agent_id: IDS.agent2, details: '{"status":429}' },
  { message: 'rate-limit exceeded for tenant', log_type: 'webhook', log_level: 'error', details: '{"status":"429"}' },
  { message: 'Café opened', log_type: 'system', log_level: 'info', details: '{"cached":true}' },
  { message: 'Timeouts are configured', log_type: 'system', log_level: 'debug', details: '{"model":"gpt-4.1-mini"}' },
  { message: 'Tenant B error line', log_type: 'llm', log_level: 'error', tenant_id: IDS.otherTenant, details: '{"provider":"Groq"}' },
  { message: 'Call started', log_type: 'call', log_level: 'info', call_id: C1, trace_id: 'tr-1' },
  { message: 'ok then', log_type: 'call', log_level: 'debug' },
  { message: 'Webhook delivered AND acknowledged', log_type: 'webhook', log_level: 'info' },
  { message: 'Transfer => done', log_type: 'transfer', log_level: 'info', details: '{"nested":{"deep":5}}' },
]
const ALL = LINES.map((_, i) => i + 1)
const except = (...out: number[]) => ALL.filter((n) => !out.includes(n))

let handle: DatabaseHandle
let service: ReturnType<typeof createCallLogsService>

beforeAll(async () => {
  handle = await migratedDb()
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Beta Health' }))
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo · Reception' }))
  LINES.forEach((line, i) => insert(handle, 'call_logs', rows.callLog({ id: uuid(i + 1), timestamp: `2026-11-01T10:${String(i).padStart(2, '0')}:00.000Z`, ...line })))
  service = createCallLogsService(handle.db, handle.json)
})
afterAll(() => handle.close())

/** The line numbers a query finds, ascending. */
async function found(query: string, principal: Principal = admin, extra: Record<string, unknown> = {}): Promise<number[]> {
  const page = await service.search(principal, callLogFilterSchema.parse({ query, ...extra }), null, 100)
  return page.rows.map((r) => Number(r.id.slice(-12))).sort((a, b) => a - b)
}

describe('the query language against the store: every operator finds exactly its lines', () => {
  it.each([
    // Text: substrings (any case, diacritics folded), whole-word phrases, word prefixes.
    ['imeout', [1, 6]],
    ['IMEOUT', [1, 6]],
    ['*imeout*', [1, 6]],
    ['timeout', [1, 6]],
    ['"timeout"', [1]],
    ['"rate limit"', [3, 4]],
    ['rate*', [3, 4]],
    ['cafe', [5]],
    ['"cafe"', [5]],
    ['ok', [9]],
    ['=>', [11]],
    ['imeout OR "rate limit"', [1, 3, 4, 6]],
    // Fields.
    ['level:error', [1, 4, 7]],
    ['level:warn', [2, 3]],
    ['level>=warning', [1, 2, 3, 4, 7]],
    ['level<info', [6, 9]],
    ['level>critical', []],
    ['type:llm', [1, 2, 7]],
    ['type!=llm', except(1, 2, 7)],
    [`tenant:${IDS.otherTenant}`, [7]],
    ['tenant:"beta health"', [7]],
    ['agent:Aria', [1, 2]],
    ['agent:"Mateo · Reception"', [3]],
    [`agent:${IDS.agent2}`, [3]],
    [`call:${C1}`, [1, 8]],
    ['trace:tr-1', [1, 8]],
    ['session:s-1', [1]],
    ['user:u-1', [1]],
    ['request:r-1', [1]],
    // details.<key>
    ['details.provider:groq', [1, 7]],
    ['details.provider:"GROQ"', [1, 7]],
    ['details.latency_ms>2000', [1]],
    ['details.latency_ms>=1500', [1, 2]],
    ['details.latency_ms<=1500', [2]],
    ['details.status:429', [3, 4]],
    ['details.status:"429"', [4]],
    ['details.status>400', [3]],
    ['details.cached:true', [5]],
    ['details.model:gpt*', [6]],
    ['details.error:*', [1]],
    ['details.nested.deep>=5', [11]],
    ['details.nested.deep:*', [11]],
    // The keys with an index (0019) mean the same: text any case, a prefix any case, numbers as numbers.
    ['details.model:GPT*', [6]],
    ['details.model:"gpt-4.1-MINI"', [6]],
    ['details.provider:gr*', [1, 7]],
    ['details.provider:*', [1, 2, 7]],
    ['details.latency_ms:2500', [1]],
    ['details.status:429.0', [3]],
    ['details.cached:1', []],
    ['-details.status:429', except(3, 4)],
    ['details.status_code:*', []],
    // NOT is the complement, lines without the field included.
    ['NOT level:error', except(1, 4, 7)],
    ['-details.provider:groq', except(1, 7)],
    ['NOT agent:Aria', except(1, 2)],
    ['NOT imeout', except(1, 6)],
    ['NOT (imeout OR rate*)', except(1, 3, 4, 6)],
    ['details.provider!=groq', except(1, 7)],
    // AND, OR, precedence, parentheses.
    ['level:error imeout', [1]],
    ['level:error AND type:webhook', [4]],
    ['level:error imeout OR type:webhook', [1, 4, 10]],
    ['level:error (imeout OR type:webhook)', [1, 4]],
    ['type:llm -level:error', [2]],
    ['(agent:Aria OR agent:"Mateo · Reception") details.latency_ms<2000', [2]],
    // Time.
    ['@since 2026-11-01T10:05Z', [6, 7, 8, 9, 10, 11]],
    ['@until 2026-11-01T10:01Z', [1, 2]],
    ['level:error @since 2026-11-01T10:02Z @until 2026-11-01T10:06Z', [4, 7]],
    ['@since 2026-11-02', []],
  ])('%s', async (query, expected) => {
    expect(await found(query)).toEqual(expected)
  })

  it('keeps a tenant token to its tenant, whatever the query names', async () => {
    expect(await found('level:error', tenantB)).toEqual([7])
    expect(await found(`tenant:${IDS.tenant}`, tenantB)).toEqual([])
  })

  it('ANDs the query with the other filters and the old q', async () => {
    expect(await found('imeout OR "rate limit"', admin, { levels: ['error'] })).toEqual([1, 4])
    expect(await found('level:error', admin, { q: 'groq' })).toEqual([1])
    expect(await found('type:llm', admin, { from: '2026-11-01T10:01:00Z', to: '2026-11-01T10:06Z' })).toEqual([2, 7])
  })

  it('anchors @last at now', () => {
    const now = new Date('2026-11-01T10:10:00.000Z')
    expect(compileLogQuery('@last 15m', now)).toMatchObject({ from: '2026-11-01T09:55:00.000Z', where: null })
    expect(compileLogQuery('@last 1h @last 5m', now).from).toBe('2026-11-01T10:05:00.000Z')
    const resolved = resolveFilter(admin, callLogFilterSchema.parse({ query: '@last 3m', from: '2026-11-01T10:08:00Z' }), now)
    expect(resolved).toMatchObject({ from: '2026-11-01T10:08:00.000Z' })
    expect(resolveFilter(admin, callLogFilterSchema.parse({ query: '@last 3m', from: '2026-11-01T10:00:00Z' }), now)).toMatchObject({ from: '2026-11-01T10:07:00.000Z' })
  })

  it('marks substrings, words and phrases in the messages it returns, not what NOT excludes', async () => {
    const page = await service.search(admin, callLogFilterSchema.parse({ query: '(imeout OR "rate limit") -type:system' }), null, 100)
    const marks = Object.fromEntries(page.rows.map((r) => [r.message, (r.highlights ?? []).map(([s, e]) => r.message.slice(s, e))]))
    expect(marks).toEqual({
      'LLM request failed after 2 attempts: groq timeout': ['imeout'],
      'Rate limit reached, retrying': ['Rate limit'],
      'rate-limit exceeded for tenant': ['rate-limit'],
    })
    const negated = await service.search(admin, callLogFilterSchema.parse({ query: 'type:llm NOT imeout' }), null, 100)
    expect(negated.rows.every((r) => (r.highlights ?? []).length === 0)).toBe(true)
  })

  it('marks words as the word index reads them: any case, diacritics folded, prefixes to the word\'s end', async () => {
    const page = await service.search(admin, callLogFilterSchema.parse({ query: '"cafe" OR rate* OR "request failed"' }), null, 100)
    const marks = Object.fromEntries(page.rows.map((r) => [r.message, (r.highlights ?? []).map(([s, e]) => r.message.slice(s, e))]))
    expect(marks).toEqual({
      'Café opened': ['Café'],
      'Rate limit reached, retrying': ['Rate'],
      'rate-limit exceeded for tenant': ['rate'],
      'LLM request failed after 2 attempts: groq timeout': ['request failed'],
    })
  })

  it('refuses a query that does not parse, with its position, before any read', () => {
    const parsed = callLogFilterSchema.safeParse({ query: 'level:error (imeout' })
    expect(parsed.success).toBe(false)
    const issue = parsed.error!.issues[0]!
    expect(issue.path).toEqual(['query'])
    expect(issue.message).toMatch(/never closed \(at column 13\)/)
    expect((issue as { params?: unknown }).params).toMatchObject({ type: 'query_syntax', ctx: { offset: 12, length: 1, column: 13 } })
    expect(() => compileLogQuery('levle:error')).toThrow(LogQuerySyntaxError)
  })

  it('exports exactly the lines the query finds', async () => {
    const stream = service.exportStream(admin, callLogFilterSchema.parse({ query: 'imeout OR "rate limit"' }), 'ndjson')
    const text = await new Response(stream).text()
    const ids = text.trim().split('\n').map((l) => Number((JSON.parse(l) as { id: string }).id.slice(-12)))
    expect(ids).toEqual([6, 4, 3, 1])
  })
})

describe('details keys with an index (0019)', () => {
  it('has an index for each key the compiler treats as indexed, and none for the others', () => {
    const names = handle.sqlite.prepare("select name from sqlite_master where type = 'index' and name like 'call_logs_details_%' order by name").pluck().all()
    expect(names).toEqual([...INDEXED_DETAILS_KEYS].sort().map((k) => `call_logs_details_${k}`))
    expect(isIndexedDetailsPath(['provider'])).toBe(true)
    expect(isIndexedDetailsPath(['provider', 'name'])).toBe(false)
    expect(isIndexedDetailsPath(['language'])).toBe(false)
  })

  it('bounds a prefix under NOCASE: ASCII letters folded, the last code point raised', () => {
    expect(prefixUpperBound('gpt')).toBe('gpu')
    expect(prefixUpperBound('GPT-4')).toBe('gpt-5')
    expect(prefixUpperBound('caf\u00e9')).toBe('caf\u00ea')
    expect(prefixUpperBound('a\u{10ffff}')).toBeNull()
    expect(prefixUpperBound('')).toBeNull()
    expect(prefixUpperBound('x\ud7ff')).toBe('x\ue000')
  })
})

describe('query plans: every indexed field uses its index', () => {
  const plan = (query: string) => {
    const f = resolveFilter(admin, callLogFilterSchema.parse({ query }))
    if (f === 'nothing') throw new Error('nothing')
    const compiled = pageQuery(handle.db, { ...f, deadline: Date.now() + 1000 }, null, 50).selectAll().compile()
    return handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
  }
  it.each([
    ['level:error', /INDEX call_logs_level_timestamp/],
    ['level>=error', /INDEX call_logs_level_timestamp/],
    ['type:llm', /INDEX call_logs_type_timestamp/],
    [`tenant:${IDS.tenant}`, /INDEX call_logs_tenant_timestamp/],
    ['agent:Aria', /INDEX call_logs_agent_timestamp/],
    [`call:${C1}`, /INDEX call_logs_call/],
    ['trace:tr-1', /INDEX call_logs_trace/],
    ['session:s-1', /INDEX call_logs_session/],
    ['user:u-1', /INDEX call_logs_user/],
    ['request:r-1', /INDEX call_logs_request/],
    ['imeout', /call_logs_trigram VIRTUAL TABLE INDEX/],
    ['"rate limit"', /call_logs_fts VIRTUAL TABLE INDEX/],
    ['rate*', /call_logs_fts VIRTUAL TABLE INDEX/],
    ['level:error OR type:webhook', /MULTI-INDEX OR.*call_logs_level_timestamp.*call_logs_type_timestamp/],
    ['@since 2026-11-01T10:05Z details.error:timeout', /INDEX call_logs_timestamp \(timestamp>\?\)/],
    // The details keys with an index of their own (0019): type and value seek it, and its (timestamp,
    // seq) alone are sorted (covering) before the page's rows are read by seq.
    ['details.provider:groq', /^SEARCH call_logs USING INTEGER PRIMARY KEY \(rowid=\?\) \| LIST SUBQUERY 1 \| SEARCH call_logs USING COVERING INDEX call_logs_details_provider \(<expr>=\? AND <expr>=\?\)( \||$)/],
    ['@since 2026-11-01T10:05Z details.provider:groq', /COVERING INDEX call_logs_details_provider \(<expr>=\? AND <expr>=\? AND timestamp>\?\)/],
    ['details.model:gpt*', /COVERING INDEX call_logs_details_model \(<expr>=\? AND <expr>>\? AND <expr><\?\)/],
    ['details.latency_ms>2000', /COVERING INDEX call_logs_details_latency_ms \(<expr>=\? AND <expr>>\?\)/],
    ['details.latency_ms<=1500', /COVERING INDEX call_logs_details_latency_ms \(<expr>=\? AND <expr><\?\)/],
    ['details.status:429', /COVERING INDEX call_logs_details_status \(<expr>=\? AND <expr>=\?\)/],
    ['details.status_code>=500', /COVERING INDEX call_logs_details_status_code \(<expr>=\? AND <expr>>\?\)/],
    ['details.status:*', /COVERING INDEX call_logs_details_status \(<expr>=\?\)/],
    ['details.status:null', /COVERING INDEX call_logs_details_status \(<expr>=\?\)/],
    ['level:error details.provider:groq', /USING INDEX call_logs_details_provider \(<expr>=\? AND <expr>=\?\)/],
    // Other keys are read line by line, in time order.
    ['details.language:fr', /^SEARCH call_logs USING INDEX call_logs_timestamp|^SCAN call_logs USING INDEX call_logs_timestamp/],
  ])('%s', (query, expected) => {
    expect(plan(query)).toMatch(expected)
  })
})

describe('the query budget', () => {
  let big: DatabaseHandle
  beforeAll(async () => {
    big = await migratedDb()
    const add = big.sqlite.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp, details) values (?, ?, 'llm', 'info', ?, ?, '{\"provider\":\"openai\"}')")
    big.sqlite.transaction(() => {
      for (let i = 0; i < 5000; i++) add.run(`id-${i}`, IDS.tenant, `line ${i}`, new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString())
    })()
  })
  afterAll(() => big.close())

  it('stops a read past its budget and names the part without an index', async () => {
    const slow = createCallLogsService(big.db, big.json, { queryBudgetMs: 0 })
    const filter = callLogFilterSchema.parse({ query: 'details.vendor:nosuch OR level:error' })
    const error = await slow.search(admin, filter, null, 50).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'LogQueryTooSlowError', parts: ['details.vendor:nosuch'] })
    expect((error as Error).message).toMatch(/stopped after 0 s: "details.vendor:nosuch" has no index/)
    await expect(new Response(slow.exportStream(admin, filter, 'ndjson')).text()).rejects.toThrow(/has no index/)
    // With its budget the same read completes (nothing matches), and the store is fine after a stop.
    const patient = createCallLogsService(big.db, big.json, { queryBudgetMs: 10_000 })
    expect((await patient.search(admin, filter, null, 50)).rows).toEqual([])
    expect((await patient.search(admin, callLogFilterSchema.parse({ query: 'details.provider:openai' }), null, 5)).rows).toHaveLength(5)
  })

  it('leaves filters without a query as they were: no budget term in their SQL', () => {
    const f = resolveFilter(admin, callLogFilterSchema.parse({ levels: ['error'], q: 'x' }))
    expect(f).not.toHaveProperty('deadline')
  })
})
