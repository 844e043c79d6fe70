import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insert, rows } from '../helpers/rows'
import { startTestServer, type TestServer } from '../helpers/test-server'

/** The tables of docs/api.md, "Ids, integers and date-times": each row, against the listener. */
const ID = '550e8400-e29b-41d4-a716-446655440000'
type Refusal = { type: string; error?: string; ctx?: Record<string, unknown> }
const refused = (type: string, error?: string): Refusal => ({ type, error })

const UUID_ROWS: Array<[string, string | Refusal]> = [
  [ID, ID],
  [ID.toUpperCase(), ID],
  ['550e8400e29b41d4a716446655440000', ID],
  [`%7B${ID}%7D`, ID],
  [`urn:uuid:${ID.toUpperCase()}`, ID],
  ['11111111-1111-1111-1111-111111111111', '11111111-1111-1111-1111-111111111111'],
  [`URN:UUID:${ID}`, refused('uuid_parsing', 'invalid character: found `U` at 1')],
  ['%7B550e8400e29b41d4a716446655440000%7D', refused('uuid_parsing', 'invalid group count: expected 5, found 1')],
  [`%20${ID}`, refused('uuid_parsing', 'invalid character: found ` ` at 1')],
  [ID.slice(0, -1), refused('uuid_parsing', 'invalid group length in group 4: expected 12, found 11')],
  ['1234', refused('uuid_parsing', 'invalid length: expected length 32 for simple format, found 4')],
]

const INT_PARSING = refused('int_parsing')
const le = (bound: number): Refusal => ({ type: 'less_than_equal', ctx: { le: bound } })
const INT_ROWS: Array<[string, number | Refusal]> = [
  ['limit=20', 20], ['limit=%2020%20', 20], ['limit=%2B20', 20], ['limit=+20', 20], ['limit=020', 20], ['limit=2_0', 20],
  ['limit=20.0', 20], ['offset=-0', 0], ['limit=5&limit=7', 7],
  ['limit=20.5', INT_PARSING], ['limit=20.', INT_PARSING], ['limit=2e1', INT_PARSING], ['limit=0x14', INT_PARSING],
  ['limit=2__0', INT_PARSING], ['limit=_20', INT_PARSING], ['limit=', INT_PARSING], ['limit=twenty', INT_PARSING],
  ['limit=5&limit=ten', INT_PARSING],
  ['offset=1…1', refused('int_parsing_size')],
  ['limit=101', le(100)], ['limit=99999999999999999999', le(100)],
  ['offset=-1', { type: 'greater_than_equal', ctx: { ge: 0 } }],
  ['offset=9007199254740992', le(9_007_199_254_740_991)],
]
/** Rows the table writes short. */
const URL_OF: Record<string, string> = { 'offset=1…1': `offset=${'1'.repeat(4301)}` }

const EXTRA = 'unexpected extra characters at the end of the input'
const dateRefused = (error: string) => refused('datetime_from_date_parsing', error)
const AT_0930 = '2026-11-01T09:30:00.000Z'
const DATE_ROWS: Array<[string, string | Refusal]> = [
  ['2026-11-01', '2026-11-01T00:00:00.000Z'],
  ['end_date=2026-11-01', '2026-11-01T23:59:59.999Z'],
  ['2026-11-01T09:30:00Z', AT_0930], ['2026-11-01t09:30:00z', AT_0930], ['2026-11-01%2009:30', AT_0930],
  ['2026-11-01_09:30:00', AT_0930], ['2026-11-01T11:30:00%2B02:00', AT_0930], ['2026-11-01T11:30:00%2B0200', AT_0930],
  ['2026-11-01T07:30:00%E2%88%9202:00', AT_0930],
  ['2026-11-01T09:30:00,5Z', '2026-11-01T09:30:00.500Z'],
  ['2026-11-01T09:30:00.1234567Z', '2026-11-01T09:30:00.124Z'],
  ['end_date=2026-11-01T09:30:00.1234567Z', '2026-11-01T09:30:00.123Z'],
  ['1793525400', AT_0930], ['1793525400000', AT_0930], ['1793525400.25', '2026-11-01T09:30:00.250Z'],
  ['2026', '1970-01-01T00:33:46.000Z'],
  ['end_date=9999-12-31T23:59:59-23:59', '9999-12-31T23:59:59.999Z'],
  ['2026-11-01T11:30:00+02:00', dateRefused(EXTRA)],
  ['2026-11-01T24:00', dateRefused(EXTRA)],
  ['2026-11-01T09:30:00%2B02', dateRefused(EXTRA)],
  ['2026-02-30', dateRefused('day value is outside expected range')],
  ['2026-13-01', dateRefused('month value is outside expected range of 1-12')],
  ['2026/11/01', dateRefused('invalid date separator, expected `-`')],
  ['yesterday', dateRefused('input is too short')],
  ['253402300800000', dateRefused('dates after 9999 are not supported as unix timestamps')],
  ['0000-01-01', refused('datetime_parsing', 'year 0 is out of range')],
  ['18446744073709551617', dateRefused('invalid date separator, expected `-`')],
]

const MESSAGES: Record<string, (r: Refusal) => string> = {
  uuid_parsing: (r) => `Input should be a valid UUID, ${r.error}`,
  int_parsing: () => 'Input should be a valid integer, unable to parse string as an integer',
  int_parsing_size: () => 'Unable to parse input string as an integer, exceeded maximum size',
  less_than_equal: (r) => `Input should be less than or equal to ${r.ctx!.le}`,
  greater_than_equal: (r) => `Input should be greater than or equal to ${r.ctx!.ge}`,
  datetime_from_date_parsing: (r) => `Input should be a valid datetime or date, ${r.error}`,
  datetime_parsing: (r) => `Input should be a valid datetime, ${r.error}`,
}

/** The one FastAPI-shaped error a refused value gets. */
const errorBody = (r: Refusal, loc: [string, string], input: string) => ({
  detail: [{ type: r.type, loc, msg: MESSAGES[r.type]!(r), input, ...(r.error ? { ctx: { error: r.error } } : r.ctx ? { ctx: r.ctx } : {}) }],
})

let server: TestServer
let agentId: string
let squadId: string
beforeAll(async () => {
  server = await startTestServer()
  const db = server
  insert(db, 'tenants', rows.tenant({ id: ID, name: 'Lax ids' }))
  insert(db, 'call_logs', rows.callLog({ id: '0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e', tenant_id: ID, agent_id: ID }))
  agentId = db.sqlite.prepare('select agent_id from conversations limit 1').pluck().get() as string
  squadId = db.sqlite.prepare('select id from squads limit 1').pluck().get() as string
})
afterAll(async () => server.close())

const answer = async (path: string) => {
  const response = await server.get(path)
  return { status: response.status, body: (await response.json()) as any }
}

describe('UUIDs as pydantic reads them', () => {
  it.each(UUID_ROWS)('%s', async (sent, expected) => {
    const tenant = await answer(`/tenants/${sent}`)
    const logs = await answer(`/logs/calls?agent_id=${sent}`)
    if (typeof expected === 'string') {
      expect(tenant).toEqual(expected === ID ? { status: 200, body: expect.objectContaining({ id: ID }) } : { status: 404, body: { detail: 'Tenant not found' } })
      expect(logs.status).toBe(200)
      expect(logs.body.map((r: { agent_id: string }) => r.agent_id)).toEqual(expected === ID ? [ID] : [])
    } else {
      const input = decodeURIComponent(sent)
      expect(tenant).toEqual({ status: 422, body: errorBody(expected, ['path', 'tenant_id'], input) })
      expect(logs).toEqual({ status: 422, body: errorBody(expected, ['query', 'agent_id'], input) })
    }
  })

  it('normalises the ids of the sessions and squad paths too', async () => {
    const sessions = await answer(`/agents/${agentId.toUpperCase()}/sessions?limit=1`)
    expect(sessions.status).toBe(200)
    expect(sessions.body.total).toBeGreaterThan(0)
    const analytics = await answer(`/squads/urn:uuid:${squadId.toUpperCase()}/analytics`)
    expect(analytics).toMatchObject({ status: 200, body: { squad_id: squadId } })
  })
})

describe('the console channel (tRPC)', () => {
  it('reads ids with the same shared schema pieces', async () => {
    const input = encodeURIComponent(JSON.stringify({ tenantId: `{${ID.toUpperCase()}}` }))
    const { status, body } = await answer(`/trpc/tenants.get?input=${input}`)
    expect(status).toBe(200)
    expect(body.result.data.id).toBe(ID)
    const bad = await answer(`/trpc/tenants.get?input=${encodeURIComponent(JSON.stringify({ tenantId: `URN:UUID:${ID}` }))}`)
    expect(bad.status).toBe(400)
  })
})

describe('integers as pydantic reads them', () => {
  it.each(INT_ROWS)('%s', async (sent, expected) => {
    const query = URL_OF[sent] ?? sent
    const name = query.slice(0, query.indexOf('='))
    const { status, body } = await answer(`/agents/${agentId}/sessions?${query}`)
    if (typeof expected === 'number') {
      expect(status).toBe(200)
      expect(body[name]).toBe(expected)
    } else {
      const input = new URLSearchParams(query).getAll(name).at(-1)!
      expect({ status, body }).toEqual({ status: 422, body: errorBody(expected, ['query', name], input) })
    }
  })
})

describe('date-times as pydantic reads them', () => {
  it.each(DATE_ROWS)('%s', async (sent, expected) => {
    const name = sent.startsWith('end_date=') ? 'end_date' : 'start_date'
    const value = sent.slice(name === 'end_date' ? 'end_date='.length : 0)
    if (typeof expected === 'string') {
      // The other bound is the expected instant itself (already in the store's form): a 1 ms period.
      const other = name === 'end_date' ? 'start_date' : 'end_date'
      const { status, body } = await answer(`/squads/${squadId}/analytics?${name}=${value}&${other}=${expected}`)
      expect(status).toBe(200)
      expect(body.period).toMatchObject({ start: expected, end: expected })
    } else {
      const input = new URLSearchParams(`${name}=${value}`).get(name)!
      expect(await answer(`/logs/calls?${name}=${value}`)).toEqual({ status: 422, body: errorBody(expected, ['query', name], input) })
    }
  })

  it('keeps an end bound past the year 9999 after every stored record, not before them', async () => {
    const { body } = await answer('/logs/calls?end_date=9999-12-31T23:59:59-23:59&limit=1')
    expect(body).toHaveLength(1)
  })
})

describe('docs/api.md', () => {
  it('lists exactly the rows tested here', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8')
    const section = doc.slice(doc.indexOf('## Ids, integers and date-times'), doc.indexOf('## Tokens and roles'))
    const documented = [...section.matchAll(/^\| `([^`]*)`/gm)].map((m) => m[1])
    const tested = [...UUID_ROWS, ...INT_ROWS, ...DATE_ROWS].map(([sent]) => sent)
    expect(documented).toEqual(tested)
  })
})
