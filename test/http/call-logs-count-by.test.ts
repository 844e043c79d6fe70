import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { servedOpenApiDocument } from '../helpers/openapi-document'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

/*
 * GET /logs/calls/count-by (issue 17 pt 4) on the real listener: values against SQLite read by the
 * test itself, the 422s in FastAPI's shape, a tenant token's scope, and its place in /openapi.json.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server.close())

type Group = { kind: string; value: unknown; name: string | null; name_shared: boolean; count: number; errors: number }
type CountBy = { by: string; top: number; bucket_seconds: number; from: string; to: string; total: number; errors: number; groups: Group[]; buckets: Array<{ start: string; counts: number[] }> }

const countBy = async (query: string, headers: Record<string, string> = {}) => {
  const response = await server.get(`/logs/calls/count-by?${query}`, { headers })
  expect(response.status, await response.clone().text()).toBe(200)
  return (await response.json()) as CountBy
}
const rows = <T>(sql: string, ...params: unknown[]) => server.sqlite.prepare(sql).all(...params) as T[]
const ERR = "log_level in ('error', 'critical')"

describe('GET /logs/calls/count-by', () => {
  it('counts error rate by provider over a week: the top groups, none and other, as SQLite counts them', async () => {
    const start = '2026-11-13T00:00:00Z'
    const end = '2026-11-20T00:00:00Z'
    const answer = await countBy(`by=details.provider&top=3&start_date=${start}&end_date=${end}`)
    const where = "timestamp between '2026-11-13T00:00:00.000Z' and '2026-11-20T00:00:00.000Z'"
    const truth = rows<{ value: string | null; count: number; errors: number }>(
      `select json_extract(details, '$.provider') as value, count(*) as count, sum(${ERR}) as errors from call_logs where ${where}
       group by value order by count desc, value is null, value`,
    )
    expect(truth.length).toBeGreaterThan(4)
    expect(answer).toMatchObject({ by: 'details.provider', top: 3, bucket_seconds: 3 * 3600, from: '2026-11-13T00:00:00.000Z', to: '2026-11-20T00:00:00.000Z' })
    expect(answer.total).toBe(truth.reduce((n, t) => n + t.count, 0))
    const top = truth.slice(0, 3)
    const rest = truth.slice(3)
    expect(answer.groups).toEqual([
      ...top.map((t) => ({ kind: t.value === null ? 'none' : 'value', value: t.value, name: null, name_shared: false, count: t.count, errors: t.errors })),
      { kind: 'other', value: null, name: null, name_shared: false, count: rest.reduce((n, t) => n + t.count, 0), errors: rest.reduce((n, t) => n + t.errors, 0) },
    ])
    // One bucket, straight from SQLite.
    const busiest = answer.buckets.reduce((a, b) => (b.counts.reduce((n, c) => n + c, 0) > a.counts.reduce((n, c) => n + c, 0) ? b : a))
    const bucketEnd = new Date(Date.parse(busiest.start) + 3 * 3600_000 - 1).toISOString()
    const inBucket = rows<{ value: string | null; count: number }>(`select json_extract(details, '$.provider') as value, count(*) as count from call_logs where timestamp between ? and ? group by value`, busiest.start, bucketEnd)
    const of = (v: string | null) => inBucket.find((r) => r.value === v)?.count ?? 0
    const named = top.map((t) => of(t.value))
    expect(busiest.counts).toEqual([...named, inBucket.reduce((n, r) => n + r.count, 0) - named.reduce((n, c) => n + c, 0)])
    expect(answer.buckets).toHaveLength(7 * 8 + 1)
  })

  it('takes the API filter parameters and the query language, and names tenants', async () => {
    const answer = await countBy(`by=tenant&log_level=error,critical&query=${encodeURIComponent('type:llm OR type:stt')}`)
    const truth = rows<{ value: string; name: string; count: number }>(
      `select tenant_id as value, t.name as name, count(*) as count from call_logs c join tenants t on t.id = c.tenant_id
       where c.${ERR} and c.log_type in ('llm', 'stt') group by tenant_id order by count desc, value`,
    )
    expect(answer.groups.filter((g) => g.kind === 'value').map((g) => [g.value, g.name, g.count, g.errors])).toEqual(truth.slice(0, 5).map((t) => [t.value, t.name, t.count, t.count]))
  })

  it('counts a tenant token’s own lines only, whatever tenant_id says', async () => {
    const [mine, theirs] = rows<{ tenant_id: string }>('select tenant_id from call_logs group by tenant_id order by count(*) desc limit 2')
    const token = await tokenFor(server, 'tenant', mine!.tenant_id)
    const own = await countBy(`by=tenant&tenant_id=${theirs!.tenant_id}`, bearer(token))
    expect(own.groups.map((g) => [g.value, g.count])).toEqual([[mine!.tenant_id, rows<{ n: number }>('select count(*) as n from call_logs where tenant_id = ?', mine!.tenant_id)[0]!.n]])
    const levels = await countBy('by=level', bearer(token))
    expect(levels.total).toBe(own.total)
  })

  it.each([
    ['', { type: 'missing', loc: ['query', 'by'] }],
    ['by=message', { type: 'value_error', loc: ['query', 'by'], input: 'message' }],
    ['by=details.bad%20key', { type: 'value_error', loc: ['query', 'by'], input: 'details.bad key' }],
    ['by=level&top=0', { type: 'greater_than_equal', loc: ['query', 'top'], input: '0' }],
    ['by=level&top=11', { type: 'less_than_equal', loc: ['query', 'top'], input: '11' }],
    ['by=level&top=five', { type: 'int_parsing', loc: ['query', 'top'], input: 'five' }],
    ['by=level&start_date=2026-11-12&end_date=2026-11-10', { type: 'value_error', loc: ['query', 'end_date'] }],
    ['by=level&query=level%3Aerror%20(imeout', { type: 'query_syntax', loc: ['query', 'query'] }],
    ['by=level&log_level=loud', { loc: ['query', 'log_level', 0] }],
  ])('refuses %s with a 422 in FastAPI shape', async (query, error) => {
    const response = await server.get(`/logs/calls/count-by?${query}`)
    expect(response.status).toBe(422)
    const body = (await response.json()) as { detail: Array<Record<string, unknown>> }
    expect(body.detail[0]).toMatchObject(error)
  })

  it('asks for a token', async () => {
    expect((await fetch(`${server.url}/logs/calls/count-by?by=level`)).status).toBe(401)
  })

  it('is in /openapi.json under its own tag, with its parameters and errors', async () => {
    const doc = (await servedOpenApiDocument()) as { paths: Record<string, Record<string, { operationId: string; tags: string[]; parameters: Array<{ name?: string; $ref?: string; required?: boolean; schema: Record<string, unknown> }>; responses: Record<string, unknown> }>> }
    const op = doc.paths['/logs/calls/count-by']!.get!
    expect(op.operationId).toBe('count_call_logs_by')
    expect(op.tags).toEqual(['Count by (Callscope extension)'])
    expect(op.parameters.find((p) => p.name === 'by')!.required).toBe(true)
    expect(op.parameters.find((p) => p.name === 'top')!.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10, default: 5 })
    expect(op.parameters.map((p) => p.name ?? p.$ref).sort()).toEqual(['#/components/parameters/Source', 'agent_id', 'by', 'call_id', 'end_date', 'log_level', 'log_type', 'q', 'query', 'session_id', 'start_date', 'tenant_id', 'top', 'trace_id'])
    // 403: a token bound to another source than ?source= names (docs/api.md, "Sources").
    expect(Object.keys(op.responses).sort()).toEqual(['200', '401', '403', '422'])
  })
})

describe('a count past its budget', () => {
  let slow: TestServer
  beforeAll(async () => {
    // A budget of 0 ms stops every budgeted read at its first check.
    process.env.CALLSCOPE_QUERY_BUDGET_MS = '0'
    try {
      slow = await startTestServer({ seed: true })
    } finally {
      delete process.env.CALLSCOPE_QUERY_BUDGET_MS
    }
  })
  afterAll(async () => slow?.close())

  it('is a 422 naming the details key, or the query term, that has no index', async () => {
    const byKey = await slow.get('/logs/calls/count-by?by=details.language')
    expect(byKey.status).toBe(422)
    const body = (await byKey.json()) as { detail: Array<{ loc: string[]; type: string; msg: string; ctx: { parts: string[] } }> }
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'by'], type: 'query_too_slow', input: 'details.language', ctx: { parts: ['details.language'] } })
    expect(body.detail[0]!.msg).toMatch(/^The count by details\.language was stopped after 0 s: "details\.language" has no index/)
    const byQuery = (await (await slow.get(`/logs/calls/count-by?by=level&query=${encodeURIComponent('details.voice_id:x* OR type:llm')}`)).json()) as typeof body
    expect(byQuery.detail[0]).toMatchObject({ loc: ['query', 'query'], type: 'query_too_slow', ctx: { parts: ['details.voice_id:x*'] } })
    // An indexed column over a time range is counted by index range counts, and a details key with
    // an index of its own (0019) from that index: neither reads a line, so neither needs the budget.
    expect((await slow.get('/logs/calls/count-by?by=tenant')).status).toBe(200)
    const byIndexedKey = await slow.get('/logs/calls/count-by?by=details.provider')
    expect(byIndexedKey.status).toBe(200)
    expect(((await byIndexedKey.json()) as { total: number }).total).toBeGreaterThan(0)
  })
})
