import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createService, type Service } from '../../src-main/service'
import { createHttpApp } from '../../src-main/server/http-app'
import { createHostGuard } from '../../src-main/server/host-guard'
import { startListener } from '../../src-main/server/listener'
import { writeDemoTemplate } from '../helpers/demo-template'
import { groundTruth } from '../helpers/ground-truth'

/** Tokens of each role, and ids that exist in the demo store, so generated requests reach real rows. */
export interface FuzzContext {
  tokens: { admin: string; viewer: string; tenant: string; env: string }
  ids: { tenants: string[]; agents: string[]; squads: string[]; calls: string[]; traces: string[]; sessions: string[] }
}

export interface FuzzServer {
  url: string
  host: string
  port: number
  service: Service
  context: FuzzContext
  /** Whether /console/* serves the built console (else it answers its documented 503 page). */
  consoleBuilt: boolean
  close(): Promise<void>
}

const ENV_TOKEN = 'fuzz-env-admin-token'
const UI_ROOT = fileURLToPath(new URL('../../out/renderer', import.meta.url))

/**
 * The real service and listener on 127.0.0.1:0 over a private copy of the demo store: `template`
 * (vitest's seeded file) when given, else a demo set seeded here. Outside vitest, since
 * test/helpers/test-server.ts needs vitest's `inject`.
 */
export async function startFuzzServer(options: { template?: string } = {}): Promise<FuzzServer> {
  // Online provider checks must never leave the machine: no key, no request.
  for (const name of Object.keys(process.env)) if (/_API_KEY$/.test(name)) delete process.env[name]
  const dir = mkdtempSync(join(tmpdir(), 'callscope-fuzz-'))
  const dbPath = join(dir, 'fuzz.sqlite')
  copyFileSync(options.template ?? (await writeDemoTemplate(dir)), dbPath)
  const service = await createService({ dbPath, envToken: ENV_TOKEN, seedNewDatabase: false })
  const hostGuard = createHostGuard('127.0.0.1')
  const consoleBuilt = existsSync(join(UI_ROOT, 'index.html'))
  const app = createHttpApp({ service, version: 'fuzz', hostGuard, uiRoot: consoleBuilt ? UI_ROOT : null })
  const listener = await startListener(app, { host: '127.0.0.1', port: 0, hostGuard })
  return {
    url: listener.url,
    host: listener.host,
    port: listener.port,
    service,
    consoleBuilt,
    context: await contextOf(service),
    async close() {
      await listener.close()
      await service.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function contextOf(service: Service): Promise<FuzzContext> {
  const sqlite = groundTruth(service.handle.path)
  const column = (sql: string) => sqlite.prepare(sql).pluck().all() as string[]
  const ids = {
    tenants: column('select id from tenants order by id'),
    agents: column('select id from agents order by id'),
    squads: column('select id from squads order by id'),
    calls: column('select distinct call_id from call_logs where call_id is not null order by call_id limit 20'),
    traces: column('select distinct trace_id from call_logs where trace_id is not null order by trace_id limit 20'),
    sessions: column('select distinct session_id from call_logs where session_id is not null order by session_id limit 20'),
  }
  sqlite.close()
  const token = async (role: 'admin' | 'viewer' | 'tenant', tenantId?: string) =>
    (await service.tokens.create({ name: `fuzz ${role}`, role, tenantId })).token
  return {
    tokens: { admin: await token('admin'), viewer: await token('viewer'), tenant: await token('tenant', ids.tenants[0]), env: ENV_TOKEN },
    ids,
  }
}
