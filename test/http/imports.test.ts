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
