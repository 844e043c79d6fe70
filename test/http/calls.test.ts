import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallList } from '../../src-shared/schemas/call'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

/*
 * GET /calls (issue 16 pt 1), against the real store: every answer is checked against SQL run
 * by the test on the same file.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const list = async (query = '', headers: Record<string, string> = bearer(ADMIN_TOKEN)) => {
  const response = await server.get(`/calls${query}`, { headers })
  return { status: response.status, body: (await response.json()) as CallList & { detail?: unknown } }
}
const ids = (sql: string, ...params: unknown[]) => server.sqlite.prepare(sql).pluck().all(...params) as string[]

/** Every page of a query, following next_cursor. */
async function walk(query: string): Promise<{ ids: string[]; pages: number }> {
  const seen: string[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const { status, body } = await list(`${query}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(status).toBe(200)
    seen.push(...body.calls.map((c) => c.id))
    cursor = body.next_cursor
    pages++
  } while (cursor)
  return { ids: seen, pages }
}

describe('GET /calls', () => {
  it('lists the newest calls first, with the counts per status and end reason of the filter', async () => {
    const { status, body } = await list()
    expect(status).toBe(200)
    expect(body.calls.map((c) => c.id)).toEqual(ids('select id from calls order by started_at desc, id desc limit 50'))
    expect(body.calls[0]).toEqual(server.sqlite.prepare('select * from calls order by started_at desc, id desc limit 1').get())
    expect(body.total).toBe(server.sqlite.prepare('select count(*) from calls').pluck().get())
    expect(body.by_status).toEqual(server.sqlite.prepare('select status, count(*) as count from calls group by status order by count desc, status').all())
    expect(body.by_end_reason).toEqual(server.sqlite.prepare('select end_reason, count(*) as count from calls group by end_reason order by count desc, end_reason').all())
    expect(body.next_cursor).toEqual(expect.any(String))
  })

  it('walks every call once in each order, page by page', async () => {
    const all = ids('select id from calls order by started_at desc, id desc')
    for (const [query, expected] of [
      ['?limit=500', all],
      ['?limit=300&order=asc', ids('select id from calls order by started_at, id')],
      ['?limit=300&sort=duration_ms', ids('select id from calls order by coalesce(duration_ms, -1) desc, id desc')],
      ['?limit=300&sort=status&order=asc', ids('select id from calls order by status, id')],
    ] as const) {
      const walked = await walk(query)
      expect(walked.ids, query).toEqual(expected)
      expect(walked.pages).toBeGreaterThan(1)
    }
  })

  it('filters by each field, alone and together, as SQL does', async () => {
    const call = server.sqlite.prepare("select c.*, v.squad_id from calls c join conversations v on v.id = c.conversation_id where c.end_reason is not null and v.squad_id is not null and c.duration_ms > 0 order by c.started_at desc limit 1").get() as Record<"id" | "tenant_id" | "agent_id" | "squad_id" | "end_reason" | "started_at" | "from_number", string>
    const day = call.started_at.slice(0, 10)
    const cases: Array<[string, string, unknown[]]> = [
      [`tenant_id=${call.tenant_id}`, 'tenant_id = ?', [call.tenant_id]],
      [`agent_id=${call.agent_id}`, 'agent_id = ?', [call.agent_id]],
      [`squad_id=${call.squad_id}`, 'conversation_id in (select id from conversations where squad_id = ?)', [call.squad_id]],
      ['status=failed', "status = 'failed'", []],
      ['status=failed,completed', "status in ('failed', 'completed')", []],
      [`end_reason=${call.end_reason}&end_reason=transferred`, "end_reason in (?, 'transferred')", [call.end_reason]],
      ['direction=outbound', "direction = 'outbound'", []],
      [`phone=${encodeURIComponent(call.from_number.slice(0, 5))}`, "(from_number like ? || '%' or to_number like ? || '%')", [call.from_number.slice(0, 5), call.from_number.slice(0, 5)]],
      ['min_duration_ms=20000&max_duration_ms=40000', 'duration_ms between 20000 and 40000', []],
      [`start_date=${day}&end_date=${day}`, 'substr(started_at, 1, 10) = ?', [day]],
      [`tenant_id=${call.tenant_id}&status=completed&direction=inbound&start_date=${day}`, "tenant_id = ? and status = 'completed' and direction = 'inbound' and started_at >= ?", [call.tenant_id, `${day}T00:00:00.000Z`]],
    ]
    for (const [query, where, params] of cases) {
      const expected = ids(`select id from calls where ${where} order by started_at desc, id desc`, ...params)
      expect(expected.length, query).toBeGreaterThan(0)
      const walked = await walk(`?limit=500&${query}`)
      expect(walked.ids, query).toEqual(expected)
      expect((await list(`?${query}`)).body.total, query).toBe(expected.length)
    }
    // A number typed as people write it.
    const spaced = `${call.from_number.slice(0, 2)} ${call.from_number.slice(2, 5)}-${call.from_number.slice(5, 7)}`
    expect((await list(`?phone=${encodeURIComponent(spaced)}&limit=500`)).body.calls.map((c) => c.id)).toContain(call.id)
  })

  it('counts each facet without its own field, so the other values stay in sight', async () => {
    const { body } = await list('?status=failed&direction=inbound')
    expect(body.total).toBe(server.sqlite.prepare("select count(*) from calls where status = 'failed' and direction = 'inbound'").pluck().get())
    expect(body.by_status).toEqual(server.sqlite.prepare("select status, count(*) as count from calls where direction = 'inbound' group by status order by count desc, status").all())
    expect(body.by_end_reason).toEqual(server.sqlite.prepare("select end_reason, count(*) as count from calls where status = 'failed' and direction = 'inbound' group by end_reason order by count desc, end_reason").all())
  })

  it('keeps a page where it was while new calls arrive', async () => {
    const first = await list('?limit=10')
    const newest = first.body.calls[0]!
    server.sqlite
      .prepare("insert into calls (id, tenant_id, agent_id, conversation_id, sip_trunk_id, direction, from_number, to_number, status, end_reason, started_at, answered_at, ended_at, duration_ms) values (?, ?, null, null, null, 'inbound', '+15550000001', '+15550000002', 'completed', 'caller_hangup', ?, null, null, 1000)")
      .run(randomUUID(), newest.tenant_id, new Date(Date.parse(newest.started_at) + 1000).toISOString())
    const second = await list(`?limit=10&cursor=${first.body.next_cursor}`)
    expect(second.body.calls.map((c) => c.id)).toEqual(ids('select id from calls order by started_at desc, id desc limit 10 offset 11'))
  })

  it("shows a tenant token only its tenant's calls", async () => {
    const tenant = ids('select id from tenants order by id')[0]!
    const token = await tokenFor(server, 'tenant', tenant)
    const own = await list('?limit=500', bearer(token))
    expect(own.body.total).toBe(server.sqlite.prepare('select count(*) from calls where tenant_id = ?').pluck().get(tenant))
    expect(own.body.calls.every((c) => c.tenant_id === tenant)).toBe(true)
    const other = ids('select id from tenants where id != ? limit 1', tenant)[0]!
    expect((await list(`?tenant_id=${other}`, bearer(token))).body).toEqual({ calls: [], next_cursor: null, total: 0, by_status: [], by_end_reason: [] })
  })

  it('refuses bad input with a 422 saying where, and no token with a 401', async () => {
    const cursor = (await list('?limit=1')).body.next_cursor!
    for (const [query, loc, type] of [
      ['?limit=0', 'limit', 'greater_than_equal'],
      ['?limit=501', 'limit', 'less_than_equal'],
      ['?sort=name', 'sort', 'enum'],
      ['?direction=sideways', 'direction', 'enum'],
      ['?min_duration_ms=-1', 'min_duration_ms', 'greater_than_equal'],
      ['?min_duration_ms=10&max_duration_ms=5', 'max_duration_ms', 'value_error'],
      ['?start_date=2026-11-05&end_date=2026-11-01', 'end_date', 'value_error'],
      ['?cursor=not-a-cursor', 'cursor', 'value_error'],
      [`?cursor=${cursor}&sort=status`, 'cursor', 'value_error'],
      ['?phone=1', 'phone', 'string_too_short'],
    ] as const) {
      const { status, body } = await list(query)
      expect(status, query).toBe(422)
      expect(body.detail, query).toEqual([expect.objectContaining({ loc: ['query', loc], type })])
    }
    expect((await fetch(`${server.url}/calls`)).status).toBe(401)
  })

  it('is in /openapi.json under its own tag, apart from the spec operations', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get?: { tags: string[]; operationId: string } }> }
    expect(doc.paths['/calls']!.get).toMatchObject({ operationId: 'list_calls', tags: ['Calls (Callscope extension)'] })
  })
})

describe('calls indexes', () => {
  it('serves every filter from an index (EXPLAIN QUERY PLAN)', () => {
    const plan = (where: string, ...params: unknown[]) =>
      (server.sqlite.prepare(`explain query plan select * from calls where ${where} order by started_at desc, id desc limit 51`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ')
    expect(plan('1')).toMatch(/SCAN calls USING INDEX calls_started/)
    expect(plan('tenant_id = ?', 'x')).toMatch(/USING INDEX calls_tenant_started/)
    expect(plan('agent_id = ?', 'x')).toMatch(/USING INDEX calls_agent_started/)
    expect(plan("status in ('failed')")).toMatch(/USING INDEX calls_status_started/)
    expect(plan("end_reason in ('sip_503')")).toMatch(/USING INDEX calls_end_reason_started/)
    expect(plan("direction = 'outbound'")).toMatch(/USING INDEX calls_direction_started|USING INDEX calls_started/)
    expect(plan('duration_ms >= 600000')).toMatch(/USING INDEX calls_duration|USING INDEX calls_started/)
    expect(plan("(from_number >= '+1415' and from_number < '+1415\uffff') or (to_number >= '+1415' and to_number < '+1415\uffff')")).toMatch(/MULTI-INDEX OR.*calls_from_number.*calls_to_number|calls_from_number/s)
    expect(plan('conversation_id in (select id from conversations where squad_id = ?)', 'x')).toMatch(/calls_conversation/)
    expect(plan("started_at >= '2026-11-01'")).toMatch(/USING INDEX calls_started/)
  })
})
