import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService, type Service } from '../service'
import { createIpcTrpcHandler, type IpcSenderInfo, trustedSenderCheck } from './ipc'

let service: Service
beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', seedNewDatabase: 'small' })
})
afterAll(async () => service.close())

const APP = 'file:///opt/callscope/out/renderer/index.html'
const WINDOW_ID = 7
const trusted: IpcSenderInfo = { sender: { id: WINDOW_ID }, senderFrame: { url: `${APP}#/logs` } }
const handler = () =>
  createIpcTrpcHandler({
    service,
    runtime: { mode: 'desktop', listenerUrl: null },
    isTrustedSender: trustedSenderCheck(() => WINDOW_ID, APP),
  })

describe('tRPC over IPC', () => {
  it('answers a query from the app window as the HTTP endpoint would, as the desktop admin', async () => {
    const response = await handler()(trusted, { url: '/tokens.whoami', method: 'GET' })
    expect(response.status).toBe(200)
    expect(JSON.parse(response.body)).toEqual({ result: { data: { role: 'admin', tenantId: null } } })
    const tenants = await handler()(trusted, { url: `/tenants.list?input=${encodeURIComponent(JSON.stringify({}))}`, method: 'GET' })
    expect((JSON.parse(tenants.body) as { result: { data: unknown[] } }).result.data).toHaveLength(3)
  })

  it('limits the desktop user to the source the console picked, and refuses an unknown one with the reason', async () => {
    const list = (source?: string) => handler()(trusted, { url: `/tenants.list?input=${encodeURIComponent(JSON.stringify({}))}`, method: 'GET', ...(source ? { source } : {}) })
    const local = await list('local')
    expect((JSON.parse(local.body) as { result: { data: unknown[] } }).result.data).toHaveLength(3)
    const sources = await handler()(trusted, { url: '/sources.list', method: 'GET', source: 'local' })
    expect((JSON.parse(sources.body) as { result: { data: unknown } }).result.data).toEqual({
      sources: [{ name: 'local', kind: 'local', firstPullAt: null, lastPullAt: null }],
      current: 'local',
      bound: false,
    })
    const unknown = await list('http://nowhere:1')
    expect(unknown.status).toBe(422)
    expect(JSON.parse(unknown.body)).toMatchObject({ detail: [{ loc: ['header', 'x-callscope-source'], msg: "Unknown source 'http://nowhere:1': this store has 'local'" }] })
    // Not a string: a malformed request, nothing run.
    expect((await handler()(trusted, { url: '/tokens.whoami', method: 'GET', source: 7 } as never)).status).toBe(400)
  })

  it('carries batches and mutations, and tRPC errors in their usual shape', async () => {
    const batch = await handler()(trusted, {
      url: `/tokens.whoami,tenants.get?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { tenantId: '00000000-0000-4000-8000-000000000000' } }))}`,
      method: 'GET',
    })
    const [who, missing] = JSON.parse(batch.body) as Array<{ result?: unknown; error?: { data: { code: string } } }>
    expect(who!.result).toBeDefined()
    expect(missing!.error!.data.code).toBe('NOT_FOUND')
    const created = await handler()(trusted, { url: '/tokens.create', method: 'POST', body: JSON.stringify({ name: 'desktop', role: 'viewer' }) })
    expect(created.status).toBe(200)
    expect((JSON.parse(created.body) as { result: { data: { token: string } } }).result.data.token).toMatch(/^cs_/)
  })

  it.each([
    ['another window', { sender: { id: 99 }, senderFrame: { url: APP } }],
    ['a frame navigated elsewhere', { sender: { id: WINDOW_ID }, senderFrame: { url: 'https://evil.example/' } }],
    ['a destroyed frame', { sender: { id: WINDOW_ID }, senderFrame: null }],
  ])('refuses %s', async (_label, event) => {
    const before = (await service.tokens.list()).length
    const response = await handler()(event, { url: '/tokens.create', method: 'POST', body: JSON.stringify({ name: 'x', role: 'admin' }) })
    expect(response.status).toBe(403)
    expect((await service.tokens.list()).length).toBe(before)
  })

  it.each([[null], ['text'], [{ url: 'tokens.whoami', method: 'GET' }], [{ url: '/x', method: 'DELETE' }], [{ url: '/x', method: 'POST', body: 5 }]])(
    'answers a malformed request %j with 400',
    async (request) => {
      expect((await handler()(trusted, request)).status).toBe(400)
    },
  )
})
