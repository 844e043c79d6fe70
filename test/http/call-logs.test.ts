import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insert, rows } from '../helpers/rows'
import { bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

let server: TestServer
let agentId: string
let tenantId: string
beforeAll(async () => {
  server = await startTestServer()
  const row = server.sqlite.prepare('select agent_id, tenant_id from call_logs where agent_id is not null group by agent_id order by count(*) desc limit 1').get() as { agent_id: string; tenant_id: string }
  agentId = row.agent_id
  tenantId = row.tenant_id
})
afterAll(async () => server.close())

type Log = Record<string, unknown> & { id: string; timestamp: string; agent_id: string | null; tenant_id: string }
const logs = async (query = '', headers: Record<string, string> = {}) => {
  const response = await server.get(`/logs/calls${query}`, { headers })
  expect(response.status).toBe(200)
  return (await response.json()) as Log[]
}
const newestFirst = (rows: Log[]) => rows.every((r, i) => i === 0 || rows[i - 1]!.timestamp >= r.timestamp)

describe('GET /logs/calls', () => {
  it('returns the 100 newest records by default, with the 13 fields of the spec', async () => {
    const rows = await logs()
    expect(rows).toHaveLength(100)
    expect(newestFirst(rows)).toBe(true)
    const expected = server.sqlite.prepare('select id from call_logs order by timestamp desc, seq desc limit 100').pluck().all()
    expect(rows.map((r) => r.id)).toEqual(expected)
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ['agent_id', 'call_id', 'details', 'id', 'log_level', 'log_type', 'message', 'request_id', 'session_id', 'tenant_id', 'timestamp', 'trace_id', 'user_id'].sort(),
    )
    expect(typeof rows[0]!.details).toBe('object')
  })

  it('honours limit at its edges', async () => {
    expect(await logs('?limit=1')).toHaveLength(1)
    expect(await logs('?limit=1000')).toHaveLength(1000)
  })

  it('filters by agent and by a date-time range, bounds included', async () => {
    const rows = await logs(`?agent_id=${agentId}&limit=1000`)
    expect(rows.length).toBeGreaterThan(100)
    expect(rows.every((r) => r.agent_id === agentId)).toBe(true)
    const start = '2026-11-10T08:00:00Z'
    const end = '2026-11-12T20:00:00Z'
    const ranged = await logs(`?start_date=${start}&end_date=${end}&limit=1000`)
    expect(ranged.length).toBeGreaterThan(0)
    expect(ranged.every((r) => r.timestamp >= '2026-11-10T08:00:00.000Z' && r.timestamp <= '2026-11-12T20:00:00.000Z')).toBe(true)
    const count = server.sqlite
      .prepare("select count(*) from call_logs where timestamp between '2026-11-10T08:00:00.000Z' and '2026-11-12T20:00:00.000Z'")
      .pluck()
      .get() as number
    expect(ranged).toHaveLength(Math.min(count, 1000))
  })

  it('reads a bare end date as the whole of that day, and offsets as offsets', async () => {
    const day = await logs('?start_date=2026-11-15&end_date=2026-11-15&limit=1000')
    expect(day.length).toBeGreaterThan(0)
    expect(day.every((r) => r.timestamp.startsWith('2026-11-15'))).toBe(true)
    expect(day.some((r) => r.timestamp >= '2026-11-15T12:00:00.000Z')).toBe(true)
    const shifted = await logs(`?start_date=${encodeURIComponent('2026-11-15T10:00:00+02:00')}&end_date=${encodeURIComponent('2026-11-15T10:30:00+02:00')}&limit=1000`)
    expect(shifted.every((r) => r.timestamp >= '2026-11-15T08:00:00.000Z' && r.timestamp <= '2026-11-15T08:30:00.000Z')).toBe(true)
  })

  it.each([
    ['?limit=0', { type: 'greater_than_equal', loc: ['query', 'limit'], input: '0', ctx: { ge: 1 } }],
    ['?limit=1001', { type: 'less_than_equal', loc: ['query', 'limit'], input: '1001', ctx: { le: 1000 } }],
    ['?limit=many', { type: 'int_parsing', loc: ['query', 'limit'], input: 'many' }],
    ['?agent_id=42', { type: 'uuid_parsing', loc: ['query', 'agent_id'], input: '42' }],
    ['?start_date=yesterday', { type: 'datetime_from_date_parsing', loc: ['query', 'start_date'], input: 'yesterday' }],
    ['?end_date=2026-02-30', { type: 'datetime_from_date_parsing', loc: ['query', 'end_date'], input: '2026-02-30' }],
    ['?start_date=2026-11-12&end_date=2026-11-10', { type: 'value_error', loc: ['query', 'end_date'], input: '2026-11-10' }],
  ])('rejects %s with a 422 in FastAPI shape', async (query, error) => {
    const response = await server.get(`/logs/calls${query}`)
    expect(response.status).toBe(422)
    const body = (await response.json()) as { detail: Array<Record<string, unknown>> }
    expect(body.detail).toHaveLength(1)
    expect(body.detail[0]).toMatchObject(error)
    expect(body.detail[0]!.msg).toEqual(expect.any(String))
  })

  it("limits a tenant token to its tenant's records", async () => {
    const token = await tokenFor(server, 'tenant', tenantId)
    const rows = await logs('?limit=1000', bearer(token))
    expect(rows.length).toBe(1000)
    expect(rows.every((r) => r.tenant_id === tenantId)).toBe(true)
  })
})

describe('GET /export/call-logs.csv', () => {
  it('serves a stored formula-like message as a neutralised cell', async () => {
    const id = '0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f'
    const message = '=HYPERLINK("http://x","click")'
    insert(server, 'call_logs', rows.callLog({ id, tenant_id: tenantId, message, details: '{"note":"@SUM(A1)"}', user_id: '-1', trace_id: 'csv-injection-check', timestamp: '2020-01-01T00:00:00.000Z' }))
    try {
      const response = await server.get('/export/call-logs.csv?trace=csv-injection-check')
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toContain('text/csv')
      const [header, line, end] = (await response.text()).split('\r\n')
      expect(header).toBe('id,tenant_id,log_type,log_level,message,timestamp,agent_id,session_id,call_id,details,user_id,trace_id,request_id')
      expect(line).toBe(`${id},${tenantId},call,info,"'=HYPERLINK(""http://x"",""click"")",2020-01-01T00:00:00.000Z,,,,"{""note"":""@SUM(A1)""}","'-1",csv-injection-check,`)
      expect(end).toBe('')
    } finally {
      server.sqlite.prepare('delete from call_logs where id = ?').run(id)
    }
  })
})
