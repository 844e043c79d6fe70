import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/test-server'

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const record = (n: number) => ({
  id: uuid(n), tenant_id: uuid(0), log_type: 'webhook', log_level: 'warning', message: `uploaded line ${n}`,
  timestamp: `2026-11-02T08:00:0${n}.000Z`, agent_id: null, session_id: null, call_id: null, details: {},
  user_id: null, trace_id: null, request_id: null,
})

let server: TestServer
beforeAll(async () => {
  server = await startTestServer({ seed: false })
})
afterAll(() => server.close())

const upload = (body: string, query = '', headers: Record<string, string> = {}) =>
  server.get(`/imports/call-logs${query}`, { method: 'POST', body, headers })

describe('POST /imports/call-logs', () => {
  it('imports an uploaded JSON array and answers 201 with the report', async () => {
    const response = await upload(JSON.stringify([record(1), record(2), { id: 'nope' }]), '?file_name=export.json', { 'Content-Type': 'application/json' })
    expect(response.status).toBe(201)
    const report = (await response.json()) as { id: string }
    expect(report).toMatchObject({ source: 'export.json', format: 'json', status: 'completed', recordsRead: 3, inserted: 2, invalid: 1 })
    expect(response.headers.get('location')).toBe(`/imports/${report.id}`)
    const listed = (await (await server.get('/logs/calls?start_date=2026-11-02&end_date=2026-11-02')).json()) as Array<{ id: string }>
    expect(listed.map((r) => r.id)).toEqual([uuid(2), uuid(1)])
  })

  it('detects NDJSON from the file name and content, and skips known ids', async () => {
    const response = await upload([record(1), record(3)].map((r) => JSON.stringify(r)).join('\n'), '?file_name=more.ndjson', { 'Content-Type': 'application/octet-stream' })
    expect(await response.json()).toMatchObject({ format: 'ndjson', inserted: 1, duplicates: 1 })
  })

  it('answers 422 for a file it cannot read, with the report, and for an unknown format', async () => {
    const broken = await upload('{"x":', '?format=json')
    expect(broken.status).toBe(422)
    expect(await broken.json()).toMatchObject({ detail: 'line 1: expected a JSON array ("[")', import: { status: 'failed' } })
    const unknown = await upload('[]', '?format=xml')
    expect(unknown.status).toBe(422)
    expect(((await unknown.json()) as { detail: unknown[] }).detail[0]).toMatchObject({ type: 'enum', loc: ['query', 'format'] })
  })

  it('needs an admin token', async () => {
    expect((await fetch(`${server.url}/imports/call-logs`, { method: 'POST', body: '[]' })).status).toBe(401)
    const viewer = await server.service.tokens.create({ name: 'viewer', role: 'viewer' })
    const refused = await fetch(`${server.url}/imports/call-logs`, { method: 'POST', body: '[]', headers: { Authorization: `Bearer ${viewer.token}` } })
    expect(refused.status).toBe(403)
  })
})

describe('POST /imports/call-logs?as_source= (what callscope push sends)', () => {
  const BACKEND = 'https://staging.example.com:8443/api'
  const ids = (body: unknown) => (body as Array<{ id: string }>).map((r) => r.id)

  it('stores the records under that backend\'s source, beside local rows of the same ids, and lists the source', async () => {
    const response = await upload([record(1), record(4)].map((r) => JSON.stringify(r)).join('\n'), `?format=ndjson&as_source=${encodeURIComponent(`${BACKEND}/`)}`)
    expect(response.status).toBe(201)
    // The base URL as a pull stores it: no trailing slash.
    expect(await response.json()).toMatchObject({ status: 'completed', inserted: 2, duplicates: 0, callLogSource: BACKEND })
    const rows = server.sqlite.prepare("select id, source from call_logs where timestamp like '2026-11-02%' order by source, id").all()
    expect(rows).toEqual([
      { id: uuid(1), source: '' }, { id: uuid(2), source: '' }, { id: uuid(3), source: '' },
      { id: uuid(1), source: BACKEND }, { id: uuid(4), source: BACKEND },
    ])
    const scoped = await server.get(`/logs/calls?start_date=2026-11-02&end_date=2026-11-02&source=${encodeURIComponent(BACKEND)}`)
    expect(scoped.status).toBe(200)
    expect(ids(await scoped.json())).toEqual([uuid(4), uuid(1)])
    const local = await server.get('/logs/calls?start_date=2026-11-02&end_date=2026-11-02&source=local')
    expect(ids(await local.json())).toEqual([uuid(3), uuid(2), uuid(1)])
    // Uploaded again: nothing new; `as_source=local` is the default's source.
    expect(await (await upload(JSON.stringify(record(4)), `?format=ndjson&as_source=${encodeURIComponent(BACKEND)}`)).json()).toMatchObject({ inserted: 0, duplicates: 1 })
    expect(await (await upload(JSON.stringify(record(4)), '?format=ndjson&as_source=local')).json()).toMatchObject({ inserted: 1, duplicates: 0, callLogSource: '' })
    const listed = (await server.service.sources.list()).map((s) => [s.name, s.kind])
    expect(listed).toEqual([['local', 'local'], [BACKEND, 'pulled']])
  })

  it('answers 422 for a source that is not local or an http(s) base URL, and stores nothing', async () => {
    const before = server.sqlite.prepare('select count(*) from call_logs').pluck().get()
    for (const [value, msg] of [
      ['ftp://x.example', 'the base URL must be http or https, not ftp:'],
      ['staging', 'not a URL: "staging"'],
      ['https://user:pw@x.example', 'the base URL must not carry credentials'],
    ]) {
      const refused = await upload(JSON.stringify(record(9)), `?format=ndjson&as_source=${encodeURIComponent(value!)}`)
      expect(refused.status).toBe(422)
      const detail = ((await refused.json()) as { detail: Array<{ type: string; loc: string[]; msg: string }> }).detail[0]
      expect(detail).toMatchObject({ type: 'value_error', loc: ['query', 'as_source'], input: value })
      expect(detail!.msg).toContain(msg)
    }
    expect(server.sqlite.prepare('select count(*) from call_logs').pluck().get()).toBe(before)
  })

  it('lets a token bound to a source write that source only (403 otherwise, nothing stored)', async () => {
    const bound = await server.service.tokens.create({ name: 'bound admin', role: 'admin', source: BACKEND })
    const post = (query: string, n: number) =>
      fetch(`${server.url}/imports/call-logs?format=ndjson${query}`, { method: 'POST', body: JSON.stringify(record(n)), headers: { Authorization: `Bearer ${bound.token}` } })
    const local = await post('', 5)
    expect(local.status).toBe(403)
    expect(await local.json()).toEqual({ detail: `Not enough permissions: this request may write only the source '${BACKEND}', not 'local'` })
    expect(server.sqlite.prepare('select count(*) from call_logs where id = ?').pluck().get(uuid(5))).toBe(0)
    const own = await post(`&as_source=${encodeURIComponent(BACKEND)}`, 5)
    expect(own.status).toBe(201)
    expect(server.sqlite.prepare('select source from call_logs where id = ?').pluck().all(uuid(5))).toEqual([BACKEND])
  })
})
