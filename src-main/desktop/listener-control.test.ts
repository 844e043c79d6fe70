import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_LISTENER, type ListenerConfig } from '../../src-shared/schemas/listener'
import { createService, type Service } from '../service'
import type { RuntimeInfo } from '../kit/runtime'
import { createListenerControl } from './listener-control'

let service: Service
beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', envToken: 'listener-test-token', seedNewDatabase: false })
})
afterAll(() => service.close())

function control() {
  const runtime: RuntimeInfo = { mode: 'desktop', listenerUrl: null }
  const saved: ListenerConfig[] = []
  const c = createListenerControl(DEFAULT_LISTENER, { service: () => service, version: 'test', uiRoot: null, runtime, save: (s) => saved.push(s) })
  return { c, runtime, saved }
}

describe('the desktop HTTP listener', () => {
  it('is off by default, and starts and stops a real listener on loopback', async () => {
    const { c, runtime, saved } = control()
    expect(c.status()).toEqual({ config: DEFAULT_LISTENER, url: null, error: null })
    const on = await c.configure({ ...DEFAULT_LISTENER, enabled: true, port: 0 })
    expect(on.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(runtime.listenerUrl).toBe(on.url)
    const health = await fetch(`${on.url}/healthz`)
    expect(await health.json()).toEqual({ status: 'ok', version: 'test' })
    const tenants = await fetch(`${on.url}/logs/calls?limit=1`, { headers: { Authorization: 'Bearer listener-test-token' } })
    expect(tenants.status).toBe(200)

    const off = await c.configure({ ...on.config, enabled: false })
    expect(off.url).toBeNull()
    expect(runtime.listenerUrl).toBeNull()
    await expect(fetch(`${on.url}/healthz`)).rejects.toThrow()
    expect(saved.map((s) => s.enabled)).toEqual([true, false])
  })

  it('reports a port in use instead of failing, and recovers on another port', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const busy = (blocker.address() as { port: number }).port
    const { c } = control()
    try {
      const status = await c.configure({ ...DEFAULT_LISTENER, enabled: true, port: busy })
      expect(status.url).toBeNull()
      expect(status.error).toBe(`port ${busy} on 127.0.0.1 is already in use: choose another port`)
      const retry = await c.configure({ ...DEFAULT_LISTENER, enabled: true, port: 0 })
      expect(retry).toMatchObject({ error: null, url: expect.stringMatching(/^http:/) })
    } finally {
      await c.stop()
      blocker.close()
    }
  })

  it('refuses a non-loopback address unless it is explicitly allowed', async () => {
    const { c } = control()
    await expect(c.configure({ ...DEFAULT_LISTENER, enabled: true, host: '0.0.0.0' })).rejects.toThrow(/not a loopback address/)
    expect(c.status().url).toBeNull()
  })
})
