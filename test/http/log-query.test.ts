import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * The query language over HTTP (issue 17): `?query=` on the console's export routes (a Callscope
 * extension, docs/api.md), 422 with the position for a query that does not parse or runs past its
 * budget, and the spec's GET /logs/calls left exactly as it was.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => server.close())

type Line = { id: string; message: string; timestamp: string; log_level: string; log_type: string }
const ndjson = async (response: Response) => (await response.text()).trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line)

/** Newest first, as the export orders: ids of the stored lines whose message passes `test`. */
function expectedIds(test: (row: { message: string; log_level: string; log_type: string }) => boolean): string[] {
  return (server.sqlite.prepare('select id, message, log_level, log_type from call_logs order by timestamp desc, seq desc').all() as Array<{ id: string; message: string; log_level: string; log_type: string }>)
    .filter(test)
    .map((r) => r.id)
}
const ratePhrase = /(^|[^\p{L}\p{N}])rate[^\p{L}\p{N}]+limit($|[^\p{L}\p{N}])/iu

describe('GET /export/call-logs.ndjson?query=', () => {
  it('streams exactly the lines the query matches, newest first', async () => {
    const response = await server.get(`/export/call-logs.ndjson?query=${encodeURIComponent('imeout OR "rate limit"')}`)
    expect(response.status).toBe(200)
    const ids = (await ndjson(response)).map((l) => l.id)
    const expected = expectedIds((r) => /imeout/i.test(r.message) || ratePhrase.test(r.message))
    expect(expected.length).toBeGreaterThan(5)
    expect(ids).toEqual(expected)
  })

  it('combines fields, NOT and text as the language says, and ANDs the other parameters', async () => {
    const query = 'level>=warning -type:webhook (imeout OR retry*)'
    const response = await server.get(`/export/call-logs.ndjson?type=llm,stt,webhook&query=${encodeURIComponent(query)}`)
    expect(response.status).toBe(200)
    const lines = await ndjson(response)
    const expected = expectedIds(
      (r) => ['llm', 'stt'].includes(r.log_type) && ['warning', 'error', 'critical'].includes(r.log_level) && (/imeout/i.test(r.message) || /(^|[^\p{L}\p{N}])retry/iu.test(r.message)),
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(lines.map((l) => l.id)).toEqual(expected)
  })

  it('answers 422 with the position and a hint for a query that does not parse, and sends nothing else', async () => {
    const response = await server.get(`/export/call-logs.csv?query=${encodeURIComponent('level:error (imeout')}`)
    expect(response.status).toBe(422)
    const body = (await response.json()) as { detail: Array<{ loc: string[]; type: string; msg: string; ctx: Record<string, unknown> }> }
    expect(body.detail).toEqual([
      expect.objectContaining({
        loc: ['query', 'query'],
        type: 'query_syntax',
        msg: expect.stringMatching(/This \( is never closed \(at column 13\)/),
        ctx: { offset: 12, length: 1, column: 13, hint: expect.stringMatching(/Add a \)/) },
      }),
    ])
    const unknown = await server.get(`/export/call-logs.ndjson?query=${encodeURIComponent('levle:error')}`)
    expect(unknown.status).toBe(422)
    expect(((await unknown.json()) as { detail: Array<{ ctx: { hint: string } }> }).detail[0]!.ctx.hint).toMatch(/Did you mean level\?/)
  })
})

describe('GET /logs/calls (the spec operation) ignores query, as any unknown parameter', () => {
  it('returns the same records with and without it', async () => {
    const plain = await (await server.get('/logs/calls?limit=20')).text()
    const withQuery = await (await server.get(`/logs/calls?limit=20&query=${encodeURIComponent('level:error')}`)).text()
    expect(withQuery).toBe(plain)
  })
})

describe('a query past its budget', () => {
  let slow: TestServer
  beforeAll(async () => {
    // A budget of 0 ms stops every budgeted read at its first check.
    process.env.CALLSCOPE_QUERY_BUDGET_MS = '0'
    try {
      slow = await startTestServer()
    } finally {
      delete process.env.CALLSCOPE_QUERY_BUDGET_MS
    }
  })
  afterAll(async () => slow?.close())

  it('is a 422 naming the slow part, before any byte of the file', async () => {
    const response = await slow.get(`/export/call-logs.csv?query=${encodeURIComponent('details.vendor:nosuch OR level:error')}`)
    expect(response.status).toBe(422)
    const body = (await response.json()) as { detail: Array<{ loc: string[]; type: string; msg: string; ctx: { parts: string[] } }> }
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'query'], type: 'query_too_slow', ctx: { parts: ['details.vendor:nosuch'] } })
    expect(body.detail[0]!.msg).toMatch(/"details.vendor:nosuch" has no index/)
    // Filters without a query are not budgeted: the same server exports them.
    expect((await slow.get('/export/call-logs.ndjson?level=critical')).status).toBe(200)
  })
})
