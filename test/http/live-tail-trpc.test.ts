import { randomUUID } from 'node:crypto'
import { Readable } from 'node:stream'
import { createTRPCClient, httpSubscriptionLink, type TRPCLink } from '@trpc/client'
import { EventSource } from 'eventsource'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { DesktopBridge } from '../../src-shared/ipc'
import type { AppRouter } from '../../src-main/server/app-router'
import { createIpcTrpcHandler, type IpcSenderInfo, trustedSenderCheck } from '../../src-main/server/ipc'
import { createIpcStreamHandler } from '../../src-main/server/ipc-stream'
import { ipcFetch, ipcStreamFetch } from '../../src-renderer/lib/ipc-fetch'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * The console's live tail (issue 16 pt 3) through both of its channels, with the renderer's own
 * link pieces: tRPC's subscription link and the eventsource package, over the real listener
 * (the browser's channel) and over the IPC handlers the desktop app registers (Electron's
 * ipcMain and webContents replaced by direct calls, as in ipc.test.ts).
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const APP = 'file:///opt/callscope/out/renderer/index.html'
const WINDOW_ID = 3
const trusted: IpcSenderInfo = { sender: { id: WINDOW_ID }, senderFrame: { url: `${APP}#/logs` } }

function ipcBridge(sender = trusted) {
  const options = { service: server.service, runtime: { mode: 'desktop' as const, listenerUrl: null }, isTrustedSender: trustedSenderCheck(() => WINDOW_ID, APP) }
  const requests = createIpcTrpcHandler(options)
  const streams = createIpcStreamHandler(options)
  const listeners = new Map<number, (chunk: string | null) => void>()
  let next = 1
  const bridge: DesktopBridge = {
    desktop: true,
    trpc: (request) => requests(sender, request),
    trpcStream: (request, onChunk) => {
      const id = next++
      listeners.set(id, onChunk)
      return { opened: streams.open(sender, id, request, (i, chunk) => listeners.get(i)?.(chunk)), close: () => streams.close(sender.sender.id, id) }
    },
  }
  return { bridge, streams }
}

const CHANNELS: Record<string, () => { link: TRPCLink<AppRouter>; openStreams: () => number }> = {
  'HTTP, with the token in a header': () => ({
    link: httpSubscriptionLink({
      url: `${server.url}/trpc`,
      EventSource,
      eventSourceOptions: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${ADMIN_TOKEN}` } }) },
    }),
    openStreams: () => 0,
  }),
  IPC: () => {
    const { bridge, streams } = ipcBridge()
    return { link: httpSubscriptionLink({ url: 'http://callscope.ipc/trpc', EventSource, eventSourceOptions: { fetch: ipcStreamFetch(bridge) } }), openStreams: streams.count }
  },
}

async function storeLines(messages: string[], level = 'error') {
  const tenant = server.sqlite.prepare('select id from tenants order by id limit 1').pluck().get() as string
  const text = messages.map((message) => JSON.stringify({ id: randomUUID(), tenant_id: tenant, log_type: 'tool', log_level: level, message, timestamp: new Date().toISOString() })).join('\n')
  const report = await server.service.imports.importCallLogs(Readable.from([text]), { source: 'live.ndjson', format: 'ndjson' })
  expect(report.inserted).toBe(messages.length)
}

describe.each(Object.keys(CHANNELS))('the live tail over %s', (channel) => {
  it('yields the backlog at once, then new matching lines as they are stored, and stops when unsubscribed', async () => {
    const { link, openStreams } = CHANNELS[channel]!()
    const client = createTRPCClient<AppRouter>({ links: [link] })
    const batches: Array<{ lines: Array<{ message: string; log_level: string }>; lastSeq: number }> = []
    const errors: unknown[] = []
    const subscription = client.callLogs.tail.subscribe(
      { filter: { levels: ['error'], types: ['tool'] }, backlog: 2 },
      { onData: (event) => batches.push(event.data), onError: (error) => errors.push(error) },
    )
    await vi.waitFor(() => expect(batches).toHaveLength(1))
    const newest = server.sqlite.prepare("select message from call_logs where log_level = 'error' and log_type = 'tool' order by timestamp desc, seq desc limit 2").pluck().all()
    expect(batches[0]!.lines.map((l) => l.message)).toEqual(newest.reverse())

    await storeLines([`${channel}: one`, `${channel}: two`])
    await storeLines([`${channel}: ignored`], 'info')
    // No reload, no request of ours: the lines come to the subscriber. (How soon: `npm run bench:live`.)
    await vi.waitFor(() => expect(batches.flatMap((b) => b.lines.map((l) => l.message))).toContain(`${channel}: two`), { timeout: 10_000, interval: 20 })
    expect(batches.slice(1).flatMap((b) => b.lines.map((l) => l.message))).toEqual([`${channel}: one`, `${channel}: two`])
    expect(errors).toEqual([])

    subscription.unsubscribe()
    await vi.waitFor(() => expect(server.service.storeWatch.waiting()).toBe(0))
    await vi.waitFor(() => expect(openStreams()).toBe(0))
  })
})

describe('IPC streams', () => {
  it('refuses a stream from a window that is not the app', async () => {
    const { bridge, streams } = ipcBridge({ sender: { id: 99 }, senderFrame: { url: APP } })
    const response = await ipcStreamFetch(bridge)('http://callscope.ipc/trpc/callLogs.tail?input=%7B%7D', { signal: undefined, headers: { Accept: 'text/event-stream' }, mode: 'cors', cache: 'no-store', redirect: 'follow' })
    expect(response.status).toBe(403)
    expect(streams.count()).toBe(0)
  })

  it('still answers plain requests through the same bridge', async () => {
    const { bridge } = ipcBridge()
    const response = await ipcFetch(bridge)('http://callscope.ipc/trpc/tokens.whoami')
    expect(await response.json()).toEqual({ result: { data: { role: 'admin', tenantId: null } } })
  })
})
