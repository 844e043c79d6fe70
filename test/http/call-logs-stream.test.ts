import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

/*
 * GET /logs/calls/stream (issue 16 pt 3): the live tail as NDJSON over the real listener, fed by
 * the real import route, checked against the store's own rows.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

type LogRecord = { id: string; tenant_id: string; log_level: string; message: string; details: unknown; timestamp: string }

/** Opens the stream; `next()` resolves with the next record as it arrives. */
async function openStream(query: string, headers = bearer(ADMIN_TOKEN)) {
  const controller = new AbortController()
  const response = await fetch(`${server.url}/logs/calls/stream${query}`, { headers, signal: controller.signal })
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffered = ''
  const pending: string[] = []
  return {
    response,
    async next(): Promise<LogRecord> {
      while (pending.length === 0) {
        const { value, done } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffered += value
        const lines = buffered.split('\n')
        buffered = lines.pop()!
        pending.push(...lines)
      }
      return JSON.parse(pending.shift()!) as LogRecord
    },
    close: () => controller.abort(),
  }
}

let n = 0
/** Stores lines through the real import route, as a user's upload would. */
async function importLines(lines: Array<Partial<LogRecord>>) {
  const body = lines
    .map((line) => {
      n += 1
      return JSON.stringify({ id: randomUUID(), tenant_id: server.sqlite.prepare('select id from tenants order by id limit 1').pluck().get(), log_type: 'llm', log_level: 'info', message: `streamed ${n}`, timestamp: new Date().toISOString(), details: { n }, ...line })
    })
    .join('\n')
  const response = await server.get('/imports/call-logs?format=ndjson', { method: 'POST', body })
  expect(response.status).toBe(201)
  expect(((await response.json()) as { inserted: number }).inserted).toBe(lines.length)
}

describe('GET /logs/calls/stream', () => {
  it('sends the newest matching records first when asked, then each new one as it is stored', async () => {
    const stream = await openStream('?log_level=error&tail=3')
    expect(stream.response.status).toBe(200)
    expect(stream.response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8')
    const newest = server.sqlite.prepare("select id from call_logs where log_level = 'error' order by timestamp desc, seq desc limit 3").pluck().all() as string[]
    const backlog = [await stream.next(), await stream.next(), await stream.next()]
    expect(backlog.map((r) => r.id)).toEqual(newest.reverse())

    await importLines([{ log_level: 'info' }, { log_level: 'error', message: 'خطأ: انتهت المهلة', details: { provider: 'groq', latency_ms: 2400 } }, { log_level: 'ERROR', message: 'second error' }])
    const first = await stream.next()
    const second = await stream.next()
    expect([first.message, second.message]).toEqual(['خطأ: انتهت المهلة', 'second error'])
    expect(first.details).toEqual({ provider: 'groq', latency_ms: 2400 })
    // The record is the API's: the same object GET /logs/calls would return for it.
    // The API's record, field for field, as GET /logs/calls returns it (no seq, no highlights).
    const listed = (await (await server.get('/logs/calls?limit=1')).json()) as LogRecord[]
    expect(Object.keys(first)).toEqual(Object.keys(listed[0]!))
    stream.close()
  })

  it('shows a tenant token its own tenant only, whatever tenant_id it asks for', async () => {
    const [own, other] = server.sqlite.prepare('select id from tenants order by id limit 2').pluck().all() as string[]
    const token = await tokenFor(server, 'tenant', other)
    const stream = await openStream(`?tenant_id=${own}`, bearer(token))
    expect(stream.response.status).toBe(200)
    await importLines([{ tenant_id: own, message: 'not yours' }, { tenant_id: other, message: 'yours' }])
    expect((await stream.next()).message).toBe('yours')
    stream.close()
  })

  it("follows a query in the explorer's language", async () => {
    const stream = await openStream(`?query=${encodeURIComponent('(imeout OR "rate limit") -level:debug')}`)
    await importLines([{ message: 'LLM timeout after 30s' }, { message: 'timeout in debug', log_level: 'debug' }, { message: 'fine' }, { message: 'Rate limit reached' }])
    expect([(await stream.next()).message, (await stream.next()).message]).toEqual(['LLM timeout after 30s', 'Rate limit reached'])
    stream.close()
  })

  it('stops following as soon as the client goes away', async () => {
    // Every stream the tests above opened has been closed: none is left waiting.
    await vi.waitFor(() => expect(server.service.storeWatch.waiting()).toBe(0))
    const stream = await openStream('?q=nothing-will-ever-match-this')
    await vi.waitFor(() => expect(server.service.storeWatch.waiting()).toBe(1))
    stream.close()
    await vi.waitFor(() => expect(server.service.storeWatch.waiting()).toBe(0))
  })

  it('refuses bad input with 422 in the spec shape, and a missing token with 401', async () => {
    const bad = async (query: string) => {
      const response = await server.get(`/logs/calls/stream${query}`)
      expect(response.status).toBe(422)
      return ((await response.json()) as { detail: Array<{ loc: string[]; msg: string }> }).detail[0]
    }
    expect(await bad('?log_level=loud')).toMatchObject({ loc: ['query', 'log_level', 0] })
    expect(await bad('?tail=-1')).toMatchObject({ loc: ['query', 'tail'], msg: 'Input should be greater than or equal to 0' })
    expect(await bad('?tail=many')).toMatchObject({ loc: ['query', 'tail'] })
    expect(await bad('?tail=1001')).toMatchObject({ loc: ['query', 'tail'] })
    expect(await bad('?query=level%3A(')).toMatchObject({ loc: ['query', 'query'], type: 'query_syntax' })
    expect((await fetch(`${server.url}/logs/calls/stream`)).status).toBe(401)
  })

  it('is in /openapi.json under its own tag', async () => {
    const doc = (await (await server.get('/openapi.json')).json()) as { paths: Record<string, { get?: { tags: string[]; operationId: string } }> }
    expect(doc.paths['/logs/calls/stream']?.get).toMatchObject({ tags: ['Live tail (Callscope extension)'], operationId: 'stream_call_logs' })
  })
})
