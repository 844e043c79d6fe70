import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createService, type Service } from '../../service'
import { createCallerFactory, router } from '../../kit/trpc'
import type { RuntimeInfo } from '../../kit/runtime'
import { providersRouter } from '../providers/providers.router'
import { settingsRouter } from './settings.router'
import type { Principal } from '../../kit/access'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const VIEWER: Principal = { role: 'viewer', tenantId: null, tokenId: 'v' }
const TENANT: Principal = { role: 'tenant', tenantId: '11111111-1111-4111-8111-111111111111', tokenId: 'k1' }

let service: Service
beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', seedNewDatabase: false })
})
afterAll(() => service.close())

const callerFor = (principal: Principal, runtime?: RuntimeInfo) => createCallerFactory(router({ settings: settingsRouter(service.database), providers: providersRouter(service.providers) }))({ principal, runtime })

describe('settings.info', () => {
  it("gives the database's info and the runtime the entry point filled in", async () => {
    const runtime: RuntimeInfo = { mode: 'headless', listenerUrl: null }
    const caller = callerFor(ADMIN, runtime)
    // The entry point fills the address in after the listener starts: the same object is read per call.
    runtime.listenerUrl = 'http://127.0.0.1:8787'
    const info = await caller.settings.info()
    expect(info.runtime).toEqual({ mode: 'headless', listenerUrl: 'http://127.0.0.1:8787' })
    expect(info.database).toEqual(await service.info())
    expect(info.database.path).toBe(':memory:')
    expect(info.database.schema.current).not.toBeNull()
    expect(info.database.counts.tenants).toBe(0)
  })

  it('reads as headless and not listening when the caller gives no runtime', async () => {
    expect((await callerFor(VIEWER).settings.info()).runtime).toEqual({ mode: 'headless', listenerUrl: null })
  })

  it('refuses tenant tokens: the row counts span every tenant', async () => {
    await expect(callerFor(TENANT).settings.info()).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})

describe('providers.catalog', () => {
  it('lists LLM and STT providers with their model ids, for admins only', async () => {
    const catalog = await callerFor(ADMIN).providers.catalog()
    expect(catalog.llm.map((p) => p.id)).toContain('openai')
    const deepgram = catalog.stt.find((p) => p.id === 'deepgram')!
    expect(deepgram.display_name).toBe('Deepgram')
    expect(deepgram.models.map((m) => m.id)).toContain('nova-3')
    await expect(callerFor(VIEWER).providers.catalog()).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })
})
