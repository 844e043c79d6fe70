import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LISTENER } from '../../src-shared/schemas/listener'
import { tempDir } from '../../test/helpers/temp-dir'
import { createService, type Service } from '../service'
import type { RuntimeInfo } from '../kit/runtime'
import { createIpcTrpcHandler, type IpcSenderInfo } from '../server/ipc'
import { createListenerControl } from './listener-control'

let service: Service
const dir = tempDir()
const runtime: RuntimeInfo = { mode: 'desktop', listenerUrl: null }
const listener = () => control
let control: ReturnType<typeof createListenerControl>
let nextSavePath: string | null = null

beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', seedNewDatabase: 'small' })
  control = createListenerControl(DEFAULT_LISTENER, { service: () => service, version: 'test', uiRoot: null, runtime, save: () => {} })
})
afterAll(async () => {
  await control.stop()
  await service.close()
})

const event: IpcSenderInfo = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } }
const desktop = () =>
  createIpcTrpcHandler({
    service,
    runtime,
    isTrustedSender: () => true,
    desktop: { listener: listener(), chooseSavePath: async () => nextSavePath },
  })
const call = async (handler: ReturnType<typeof desktop>, path: string, input?: unknown) => {
  const response = await handler(event, input === undefined ? { url: `/${path}`, method: 'GET' } : { url: `/${path}`, method: 'POST', body: JSON.stringify(input) })
  return { status: response.status, body: JSON.parse(response.body) as { result?: { data: any }; error?: { message: string; data: { code: string } } } }
}

describe('desktop procedures over IPC', () => {
  it('turns the HTTP listener on from Settings and shows its URL there', async () => {
    const on = await call(desktop(), 'settings.setListener', { ...DEFAULT_LISTENER, enabled: true, port: 0 })
    expect(on.body.result!.data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const info = await call(desktop(), 'settings.info')
    expect(info.body.result!.data.runtime).toEqual({ mode: 'desktop', listenerUrl: on.body.result!.data.url })
    expect((await fetch(`${on.body.result!.data.url}/healthz`)).status).toBe(200)
    const off = await call(desktop(), 'settings.setListener', { ...DEFAULT_LISTENER, enabled: false })
    expect(off.body.result!.data.url).toBeNull()
  })

  it('refuses a non-loopback address without the explicit permission, with a 400', async () => {
    const refused = await call(desktop(), 'settings.setListener', { ...DEFAULT_LISTENER, enabled: true, host: '0.0.0.0' })
    expect(refused.body.error!.data.code).toBe('BAD_REQUEST')
    expect(refused.body.error!.message).toMatch(/not a loopback address/)
  })

  it('exports the filtered view to the file the user picked', async () => {
    nextSavePath = `${dir}/errors.ndjson`
    const done = await call(desktop(), 'callLogs.exportToFile', { filter: { levels: ['error'] }, format: 'ndjson' })
    const lines = readFileSync(nextSavePath, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { log_level: string })
    expect(done.body.result!.data).toEqual({ path: nextSavePath, rows: lines.length })
    expect(lines.length).toBeGreaterThan(0)
    expect(new Set(lines.map((l) => l.log_level))).toEqual(new Set(['error']))
    nextSavePath = null
    expect((await call(desktop(), 'callLogs.exportToFile', { filter: {}, format: 'csv' })).body.result!.data).toEqual({ path: null, rows: 0 })
  })

  it('refuses the desktop procedures outside the desktop app', async () => {
    const browser = createIpcTrpcHandler({ service, runtime: { mode: 'headless', listenerUrl: null }, isTrustedSender: () => true })
    const answer = await call(browser, 'settings.listener')
    expect(answer.body.error!.data.code).toBe('BAD_REQUEST')
    expect(answer.body.error!.message).toMatch(/Only the desktop app/)
  })
})
