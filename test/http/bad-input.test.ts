import { once } from 'node:events'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../helpers/test-server'

/** No bad input ever yields a 500: every answer is a 4xx in the spec's shape, and nothing changes. */
let server: TestServer
let counts: () => string
beforeAll(async () => {
  server = await startTestServer()
  const db = server.sqlite
  counts = () => JSON.stringify(db.prepare('select (select count(*) from tenants), (select count(*) from call_logs), (select count(*) from provider_credentials), (select count(*) from api_tokens)').raw().get())
})
afterAll(async () => server.close())

const NASTY = [
  '',
  ' ',
  '%00',
  '%ZZ',
  'null',
  '-1',
  '1e309',
  '99999999999999999999999',
  "'; drop table call_logs; --",
  '" OR 1=1 --',
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%93%9E%E2%80%AEabc',
  'a'.repeat(20_000),
  '[]',
  '{}',
]

const PATHS = (value: string) => [
  `/tenants/${value}`,
  `/agents/${value}/sessions?limit=${value}&offset=${value}`,
  `/agents/${value}/conversations`,
  `/logs/calls?start_date=${value}&end_date=${value}&agent_id=${value}&limit=${value}`,
  `/logs/calls?limit=1&limit=${value}`,
  `/squads/${value}/analytics?start_date=${value}`,
  `/admin/providers/llm/${value}`,
  `/agents/sip/list-trunks?${value}=${value}`,
  `/trpc/callLogs.list?input=${value}`,
  `/trpc/tenants.get?input=${encodeURIComponent(JSON.stringify({ tenantId: value }))}`,
]

const BODIES = [
  '[]',
  '"text"',
  '42',
  'null',
  '{"provider": 1, "model": {"x": 1}}',
  '{"provider": "deepgram", "model": "nova-3", "__proto__": {"admin": true}}',
  '{"provider": "deepgram", "model": "' + 'm'.repeat(100_000) + '"}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '{"provider": "\u0000", "model": "\ud800"}',
  '{"provider": "deepgram"',
]

describe('bad input', () => {
  it('never answers 5xx on any route, and leaves the store unchanged', async () => {
    const before = counts()
    const failures: string[] = []
    for (const value of NASTY) {
      for (const path of PATHS(value)) {
        const response = await server.get(path)
        const text = await response.text()
        if (response.status >= 500) failures.push(`${response.status} GET ${path.slice(0, 120)}: ${text.slice(0, 200)}`)
        // A request line over 16 KiB is refused by Node's HTTP parser (431): in the same shape (server/client-errors.ts).
        else if (response.status >= 400 && !path.startsWith('/trpc/')) expect(() => JSON.parse(text), `${response.status} ${path.slice(0, 80)}`).not.toThrow()
      }
    }
    for (const body of BODIES) {
      for (const type of ['application/json', 'text/plain', 'application/json; charset=latin1']) {
        const response = await server.get('/admin/providers/validate/stt', { method: 'POST', body, headers: { 'Content-Type': type } })
        const text = await response.text()
        if (response.status >= 500) failures.push(`${response.status} POST ${body.slice(0, 60)} (${type}): ${text.slice(0, 200)}`)
        else expect(response.status).toBeGreaterThanOrEqual(200)
      }
    }
    expect(failures).toEqual([])
    expect(counts()).toBe(before)
    expect((await server.get('/healthz')).status).toBe(200)
  })

  it('answers the JSON-body errors as documented', async () => {
    const post = (body: string, type = 'application/json') =>
      server.get('/admin/providers/validate/stt', { method: 'POST', body, headers: { 'Content-Type': type } })
    expect((await post('[]')).status).toBe(422)
    const missing = (await (await post('{}')).json()) as { detail: Array<{ type: string; loc: string[] }> }
    expect(missing.detail.map((d) => [d.type, d.loc.join('.')])).toEqual(expect.arrayContaining([['missing', 'body.provider'], ['missing', 'body.model']]))
    const wrongType = (await (await post('{"provider": 1, "model": "nova-3"}')).json()) as { detail: Array<{ type: string; loc: string[] }> }
    expect(wrongType.detail[0]).toMatchObject({ type: 'string_type', loc: ['body', 'provider'] })
    expect((await post('{"provider": "deepgram"', 'application/json')).status).toBe(422)
    expect((await post('provider=deepgram', 'application/x-www-form-urlencoded')).status).toBe(415)
    expect((await post(`{"provider":"${'x'.repeat(1_100_000)}"}`)).status).toBe(413)
  })
})

it('searches text with a NUL in it instead of breaking off the export or failing the console search (found by the fuzzer)', async () => {
  // The fuzzer's input: SQLite read the FTS5 query only up to the NUL ("unterminated string"), after the 200 had gone.
  const exported = await server.get('/export/call-logs.csv?to=2026-11-19T11%3A00%3A00Z&level=critical&type=llm&q=a%00b%20%C2%A0')
  expect(exported.status).toBe(200)
  expect(await exported.text()).toMatch(/^id,tenant_id,/)
  const ndjson = await server.get('/export/call-logs.ndjson?q=retry%00ing')
  expect(ndjson.status).toBe(200)
  await ndjson.text()
  const search = await server.get(`/trpc/callLogs.search?input=${encodeURIComponent(JSON.stringify({ filter: { q: 'call\u0000ended' } }))}`)
  expect(search.status).toBe(200)
})

/** Sends raw bytes on a new connection and returns all the server sent before it closed. */
async function rawExchange(port: number, text: string): Promise<string> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => (received += chunk))
  socket.write(text)
  await once(socket, 'end')
  socket.destroy()
  return received
}

/** Status and parsed body of the one answer in `received`. */
function answerOf(received: string): { status: number; body: unknown } {
  const body = received.slice(received.indexOf('\r\n\r\n') + 4)
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]), body: body === '' ? '' : JSON.parse(body) }
}

/** Found by `npm run fuzz`: requests refused before any route runs answered with an empty body. */
describe('requests refused before routing', () => {
  const host = () => `Host: 127.0.0.1:${server.port}`

  it.each([
    ['an invalid method', () => `FOO /docs HTTP/1.1\r\n${host()}\r\n\r\n`, 400],
    ['a space in the target', () => `GET /tenants/a b HTTP/1.1\r\n${host()}\r\n\r\n`, 400],
    ['a NUL in a header', () => `GET /healthz HTTP/1.1\r\n${host()}\r\nAuthorization: Bearer \u0000x\r\n\r\n`, 400],
    ['no Host header', () => 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
    ['a Host header ending in a dot', () => `GET /healthz HTTP/1.1\r\n${host()}.\r\nConnection: close\r\n\r\n`, 400],
    ['two names in the Host header', () => `GET /healthz HTTP/1.1\r\n${host()}, evil.example\r\nConnection: close\r\n\r\n`, 400],
    ['headers over 16 KiB', () => `GET /healthz HTTP/1.1\r\n${host()}\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`, 431],
  ])('answers %s in the documented shape', async (_label, request, status) => {
    const answer = answerOf(await rawExchange(server.port, request()))
    expect(answer.status).toBe(status)
    expect(answer.body).toEqual({ detail: expect.any(String) })
  })

  it('answers HEAD with headers over 16 KiB without a body, so the client does not read one as the next answer', async () => {
    const received = await rawExchange(server.port, `HEAD /healthz HTTP/1.1\r\n${host()}\r\nX-Big: ${'x'.repeat(17_000)}\r\n\r\n`)
    expect(received).toMatch(/^HTTP\/1\.1 431 /)
    expect(received).toMatch(/^Content-Length: 0\r$/im)
    expect(received.endsWith('\r\n\r\n')).toBe(true)
  })
})
