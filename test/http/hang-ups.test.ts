import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ServeProcess, startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'

/*
 * A client that hangs up in the middle of a streaming answer or of its own upload: the console tab
 * closed while its facets were still counting, `curl | head`, a killed import. `serve` must keep
 * answering everyone else. A console tab closed mid-count once took the process down: tRPC's SSE
 * producer had asked the subscription for its next answer, the count then threw the abort's reason
 * into that read, and nobody awaited it (kit/trpc.ts, endSubscriptionsOnAbort).
 */

let server: ServeProcess
let token: string

beforeAll(async () => {
  server = await startServe(['--db', `${tempDir()}/hang-ups.sqlite`])
  token = /Admin token \(shown once[^)]*\): (cs_\S+)/.exec(server.banner)![1]!
}, 120_000)
afterAll(() => server.stop())

const input = (value: unknown) => encodeURIComponent(JSON.stringify(value))

/**
 * Sends `head` (and `body`, short of what Content-Length promised when given) on a raw socket, then
 * destroys the socket `afterMs` after the first bytes of the answer (or after sending, for a
 * request whose body never arrives). Resolves with what was read by then.
 */
function hangUp(head: string, { afterMs, body }: { afterMs: number; body?: string }): Promise<string> {
  const { port, hostname, host } = new URL(server.url)
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname)
    let got = ''
    let timer: NodeJS.Timeout | undefined
    const cut = () => (timer ??= setTimeout(() => socket.destroy(), afterMs))
    socket.on('data', (chunk) => {
      got += chunk
      cut()
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve(got))
    socket.write(`${head.replace('HOST', host)}${body ?? ''}`)
    if (body !== undefined) cut()
  })
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: HOST\r\nAuthorization: Bearer TOKEN\r\n\r\n`
const post = (path: string, type: string, promised: number) =>
  `POST ${path} HTTP/1.1\r\nHost: HOST\r\nAuthorization: Bearer TOKEN\r\nContent-Type: ${type}\r\nContent-Length: ${promised}\r\n\r\n`

const STREAMS: Array<[string, string]> = [
  // Facets and count-by answer in waves of time slices when the filter is narrower than a time range.
  ['tRPC callLogs.facetsProgress', get(`/trpc/callLogs.facetsProgress?input=${input({ filter: { query: 'details.language:fr' } })}`)],
  ['tRPC callLogs.countByProgress', get(`/trpc/callLogs.countByProgress?input=${input({ filter: { query: 'level:info' }, by: 'details.language', top: 5 })}`)],
  ['tRPC callLogs.tail', get(`/trpc/callLogs.tail?input=${input({ filter: {}, backlog: 50 })}`)],
  ['GET /export/call-logs.ndjson', get('/export/call-logs.ndjson')],
  ['GET /export/call-logs.csv', get('/export/call-logs.csv')],
  ['GET /logs/calls/stream', get('/logs/calls/stream?tail=50')],
]

const UPLOADS: Array<[string, string, string]> = [
  ['POST /imports/call-logs', post('/imports/call-logs?file_name=cut.ndjson', 'application/x-ndjson', 100_000), '{"id":"cut-1","timestamp":"2026-11-01T10:00:00Z","message":"a'],
  ['tRPC mutation savedViews.create', post('/trpc/savedViews.create', 'application/json', 400), '{"name":"half a vi'],
]

async function stillServing(): Promise<void> {
  const health = await fetch(`${server.url}/healthz`)
  expect(health.status).toBe(200)
  // startServe prints why if it exited: its output says what the client's cut did.
  expect(server.child.exitCode).toBeNull()
}

describe('a client that hangs up', () => {
  // Each stream is cut as soon as it answers, a little later, and later still: between waves of a count.
  it.each(STREAMS)('mid-answer (%s) leaves serve answering', async (_name, head) => {
    for (const afterMs of [0, 1, 2, 3, 5, 5, 8, 12, 20, 40, 60, 100]) {
      const read = await hangUp(head.replace('TOKEN', token), { afterMs })
      expect(read).toMatch(/^HTTP\/1\.1 200 /)
      await stillServing()
    }
  })

  it.each(UPLOADS)('mid-upload (%s) leaves serve answering and stores nothing', async (_name, head, body) => {
    for (const afterMs of [0, 20]) {
      const read = await hangUp(head.replace('TOKEN', token), { afterMs, body })
      expect(read).toBe('')
      await stillServing()
    }
    const auth = { Authorization: `Bearer ${token}` }
    const cut = await fetch(`${server.url}/trpc/callLogs.search?input=${input({ filter: { query: '"cut-1"' }, limit: 5 })}`, { headers: auth })
    expect(((await cut.json()) as { result: { data: { rows: unknown[] } } }).result.data.rows).toEqual([])
    const views = await fetch(`${server.url}/trpc/savedViews.list`, { headers: auth })
    expect(JSON.stringify(await views.json())).not.toContain('half a vi')
  })
})
