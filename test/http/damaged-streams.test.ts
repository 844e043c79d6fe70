import { connect } from 'node:net'
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client'
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppRouter } from '../../src-main/server/app-router'
import { type ServeProcess, startServe } from '../helpers/cli'
import { damagedDemoStore, type DamagedStore } from '../helpers/damaged-rows'
import { tempDir } from '../helpers/temp-dir'

/*
 * Issue 36, point 3: a stream that fails after its headers never looks complete. `serve` on a
 * store whose call log pages are garbage a few hundred lines in: every stream has sent its status
 * and first lines when the read meets the damage. An HTTP body must then end without its last
 * chunk (curl and fetch report an error; a file saved from it is known to be cut), and an SSE or
 * tRPC subscription must send an error event, never a normal end.
 */

const TOKEN = 'damaged-streams-token'
let server: ServeProcess
let store: DamagedStore

beforeAll(async () => {
  // The line at rank 800 of newest-first is on a damaged page: the first export chunk (500 lines)
  // and the tail's first lines read, the tail's backlog of 1000 and the second chunk do not.
  store = damagedDemoStore(tempDir(), [800])
  server = await startServe(['--db', store.path], { CALLSCOPE_TOKEN: TOKEN })
}, 120_000)
afterAll(() => server.stop())

const input = (value: unknown) => encodeURIComponent(JSON.stringify(value))
const auth = { Authorization: `Bearer ${TOKEN}` }

/** GET on a raw socket, asking the server to close after the answer; resolves with every byte read once the socket closes. */
function rawGet(path: string): Promise<string> {
  const { port, hostname, host } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let got = ''
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`${path}: the connection was still open after 30 s; read so far:\n${got.slice(0, 2000)}`))
    }, 30_000)
    socket.on('data', (chunk) => (got += chunk))
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve(got)
    })
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`)
  })
}

/** The lines of a chunked body (its chunks joined), and whether it ended with the 0-length chunk that says it is whole. */
function dechunk(raw: string): { status: number; lines: string[]; whole: boolean } {
  const split = raw.indexOf('\r\n\r\n')
  const status = Number(/^HTTP\/1\.1 (\d+)/.exec(raw)![1])
  let rest = raw.slice(split + 4)
  let body = ''
  let whole = false
  for (;;) {
    const end = rest.indexOf('\r\n')
    if (end < 0) break
    const size = Number.parseInt(rest.slice(0, end), 16)
    if (size === 0) {
      whole = rest.slice(end) === '\r\n\r\n'
      break
    }
    // Chunk sizes count bytes; the demo's messages are ASCII except a few, so read it as bytes.
    const bytes = Buffer.from(rest.slice(end + 2), 'utf8')
    if (bytes.length < size + 2) {
      body += bytes.toString('utf8')
      break
    }
    body += bytes.subarray(0, size).toString('utf8')
    rest = bytes.subarray(size + 2).toString('utf8')
  }
  return { status, lines: body.split('\n').filter((line) => line !== ''), whole }
}

const EXPORTS = [
  ['GET /export/call-logs.ndjson', '/export/call-logs.ndjson', 0],
  // The CSV's header line comes first.
  ['GET /export/call-logs.csv', '/export/call-logs.csv', 1],
] as const

describe('an HTTP stream that meets a damaged page after its headers', () => {
  it('the damage sits where the streams have started', () => {
    expect(store.firstLost).toBeGreaterThanOrEqual(500)
    expect(store.firstLost).toBeLessThan(1000)
  })

  it.each(EXPORTS)('%s: fetch rejects the body; the lines before the damage came whole, no end chunk', async (_name, path, header) => {
    const response = await fetch(`${server.url}${path}`, { headers: auth })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow(/terminated/)

    const raw = dechunk(await rawGet(path))
    expect(raw.status).toBe(200)
    expect(raw.whole).toBe(false)
    // The first chunk of 500 lines, then the read of the next one met the damage.
    expect(raw.lines.length - header).toBe(500)
    if (header === 0) for (const line of raw.lines) expect(JSON.parse(line)).toHaveProperty('id')
    expect(server.child.exitCode).toBeNull()
  })

  it('GET /logs/calls/stream?tail=1000: the backlog meets the damage, the body is cut, not ended', async () => {
    const response = await fetch(`${server.url}/logs/calls/stream?tail=1000`, { headers: auth })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow(/terminated/)

    const raw = dechunk(await rawGet('/logs/calls/stream?tail=1000'))
    expect(raw.status).toBe(200)
    expect(raw.whole).toBe(false)
    expect(raw.lines).toEqual([])
  })

  it('GET /logs/calls/stream?tail=100: the newest lines read whole, the stream stays open', async () => {
    const controller = new AbortController()
    const response = await fetch(`${server.url}/logs/calls/stream?tail=100`, { headers: auth, signal: controller.signal })
    const reader = response.body!.getReader()
    let text = ''
    while (text.split('\n').length <= 100) text += new TextDecoder().decode((await reader.read()).value)
    expect(text.trim().split('\n')).toHaveLength(100)
    controller.abort()
  })
})

function client() {
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: `${server.url}/trpc`, EventSource, eventSourceOptions: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...auth } }) } }),
        false: httpLink({ url: `${server.url}/trpc`, headers: auth }),
      }),
    ],
  })
}

/** What a subscription gave before it stopped: its answers, and the error it ended with (or 'complete'). */
function outcome(subscribe: (handlers: { onData: (value: unknown) => void; onError: (error: unknown) => void; onComplete: () => void }) => { unsubscribe(): void }) {
  return new Promise<{ data: unknown[]; end: unknown }>((resolve) => {
    const data: unknown[] = []
    const subscription = subscribe({
      onData: (value) => {
        data.push(value)
        // A count sends its whole answer last and stays open: a complete answer over damaged pages is the fault.
        if ((value as { complete?: boolean }).complete) {
          subscription.unsubscribe()
          resolve({ data, end: 'complete answer' })
        }
      },
      onError: (error) => {
        subscription.unsubscribe()
        resolve({ data, end: error })
      },
      onComplete: () => resolve({ data, end: 'complete' }),
    })
  })
}

/** The first SSE events of a raw tRPC subscription, up to its first error event (or 30 s). */
async function sseUntilError(path: string, value: unknown): Promise<string> {
  const response = await fetch(`${server.url}/trpc/${path}?input=${input(value)}`, { headers: auth, signal: AbortSignal.timeout(30_000) })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('event: serialized-error')) {
    const { value: chunk, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(chunk)
  }
  await reader.cancel().catch(() => {})
  return text
}

const SUBSCRIPTIONS = [
  ['callLogs.tail (backlog 1000)', 'tail', { filter: {}, backlog: 1000 }],
  // A filter on a details key without an index of its own reads the lines themselves, slice by slice.
  ['callLogs.facetsProgress', 'facetsProgress', { filter: { query: 'details.language:fr' } }],
  ['callLogs.countByProgress', 'countByProgress', { filter: { query: 'details.language:fr' }, by: 'details.model', top: 3 }],
] as const

describe('a subscription that meets a damaged page', () => {
  it.each(SUBSCRIPTIONS)('%s: the client gets an error naming the damage, not an end', async (_name, procedure, value) => {
    const api = client()
    const { end } = await outcome((h) => (api.callLogs[procedure].subscribe as (input: unknown, handlers: unknown) => { unsubscribe(): void })(value, h))
    expect(end).toBeInstanceOf(Error)
    // Not a 5xx code: tRPC's client would reconnect and read the same damaged page for ever.
    expect(end).toMatchObject({ data: { code: 'PRECONDITION_FAILED' } })
    expect((end as Error).message).toMatch(/the store is damaged \(.*damaged\.sqlite/)
    expect((end as Error).message).toContain('callscope db check')

    const events = await sseUntilError(`callLogs.${procedure}`, value)
    expect(events).toContain('event: serialized-error')
    expect(events).toMatch(/"message":"Reading the store failed: the store is damaged/)
    expect(events).not.toContain('"complete":true')
    expect(server.child.exitCode).toBeNull()
  })
})
