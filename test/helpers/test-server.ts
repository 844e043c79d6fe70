import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { inject } from 'vitest'
import { createService, type Service, type ServiceOptions } from '../../src-main/service'
import { createHttpApp } from '../../src-main/server/http-app'
import { createHostGuard } from '../../src-main/server/host-guard'
import { startListener } from '../../src-main/server/listener'
import { DEMO_SEED } from './demo-template'
import { groundTruth } from './ground-truth'
import { createPgDatabase } from './pg-database'
import { tempDir } from './temp-dir'

export { SEED_ANCHOR } from './demo-template'
export const ADMIN_TOKEN = 'test-admin-token'

export interface TestServer {
  url: string
  port: number
  service: Service
  /** The test's own connection to the server's store file (ground-truth.ts); reading it throws on a PostgreSQL store. */
  sqlite: BetterSqlite3.Database
  /** The store's location: the file, or the PostgreSQL database's URL. */
  dbPath: string
  /** fetch against the server with the admin token unless other headers are given. */
  get(path: string, init?: RequestInit): Promise<Response>
  /** Stops listening (connections are refused, the service and its store stay), as a backend that went away. */
  stopListening(): Promise<void>
  /** Listens again on the same port, as the backend coming back. */
  listenAgain(): Promise<void>
  close(): Promise<void>
}

/**
 * The real service on a temporary database file behind the real listener on 127.0.0.1:0,
 * seeded (unless told not to) with the small demo set at a fixed anchor, so values are known.
 * The seeded file is a copy of the run's template (test/global-setup.ts), private to the caller,
 * so tests may write to it; without a template (a project that has no global setup) it seeds its own.
 */
export async function startTestServer(
  options: { seed?: boolean; service?: Partial<ServiceOptions>; store?: 'sqlite' | 'postgres'; tls?: { cert: string; key: string }; /** SQLite: where the store file goes (a small disk's folder, say) instead of a temporary folder. */ dbPath?: string } = {},
): Promise<TestServer> {
  const postgres = options.store === 'postgres'
  // On PostgreSQL: a database of the file's own, copied from the run's demo (or empty) template
  // database (test/pg-global-setup.ts), which holds the very rows of the SQLite template.
  const dbPath = postgres ? await createPgDatabase({ seed: options.seed }) : (options.dbPath ?? join(tempDir(), 'server.sqlite'))
  const template = options.seed === false || postgres ? undefined : inject('demoTemplate')
  if (template) copyFileSync(template, dbPath)
  const service = await createService({ dbPath, envToken: ADMIN_TOKEN, seedNewDatabase: false, ...options.service })
  if (options.seed !== false && !template && !postgres) await service.database.seed(DEMO_SEED)
  const hostGuard = createHostGuard('127.0.0.1')
  const app = createHttpApp({ service, version: 'test', hostGuard, uiRoot: null })
  let listener = await startListener(app, { host: '127.0.0.1', port: 0, hostGuard, tls: options.tls })
  let listening = true
  const { port } = listener
  const sqlite = postgres ? null : groundTruth(dbPath)
  return {
    url: listener.url,
    port: listener.port,
    service,
    dbPath,
    get sqlite(): BetterSqlite3.Database {
      if (!sqlite) throw new Error('a PostgreSQL test server has no SQLite ground truth: query service.db')
      return sqlite
    },
    get: (path, init = {}) =>
      fetch(`${listener.url}${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.headers ?? {}) } }),
    async stopListening() {
      await listener.close()
      listening = false
    },
    async listenAgain() {
      listener = await startListener(app, { host: '127.0.0.1', port, hostGuard, tls: options.tls })
      listening = true
    },
    async close() {
      sqlite?.close()
      if (listening) await listener.close()
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
