import { join } from 'node:path'
import { seedDatabase } from '../../src-main/seed'
import { createService, type Service } from '../../src-main/service'
import { createHttpApp } from '../../src-main/server/http-app'
import { createHostGuard } from '../../src-main/server/host-guard'
import { startListener } from '../../src-main/server/listener'
import { tempDir } from './temp-dir'

export const ADMIN_TOKEN = 'test-admin-token'
export const SEED_ANCHOR = Date.parse('2026-11-20T12:00:00.000Z')

export interface TestServer {
  url: string
  port: number
  service: Service
  /** fetch against the server with the admin token unless other headers are given. */
  get(path: string, init?: RequestInit): Promise<Response>
  close(): Promise<void>
}

/**
 * The real service on a temporary database file behind the real listener on 127.0.0.1:0,
 * seeded (unless told not to) with the small demo set at a fixed anchor, so values are known.
 */
export async function startTestServer(options: { seed?: boolean } = {}): Promise<TestServer> {
  const dbPath = join(tempDir(), 'server.sqlite')
  const service = await createService({ dbPath, envToken: ADMIN_TOKEN, seedNewDatabase: false })
  if (options.seed !== false) seedDatabase(service.handle, { scale: 'small', seed: 11, anchor: SEED_ANCHOR })
  const hostGuard = createHostGuard('127.0.0.1')
  const app = createHttpApp({ service, version: 'test', hostGuard, uiRoot: null })
  const listener = await startListener(app, { host: '127.0.0.1', port: 0, hostGuard })
  return {
    url: listener.url,
    port: listener.port,
    service,
    get: (path, init = {}) =>
      fetch(`${listener.url}${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers ?? {}) } }),
    async close() {
      await listener.close()
      await service.close()
    },
  }
}

/** A token of the given role, created through the real token service. */
export async function tokenFor(server: TestServer, role: 'admin' | 'viewer' | 'tenant', tenantId?: string): Promise<string> {
  const { token } = await server.service.tokens.create({ name: `${role} test`, role, tenantId })
  return token
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
