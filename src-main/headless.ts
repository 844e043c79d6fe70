import type { RuntimeInfo } from './kit/runtime'
import { createHttpApp } from './server/http-app'
import { createHostGuard } from './server/host-guard'
import { startListener } from './server/listener'
import { isLoopback } from '../src-shared/schemas/listener'
import { createSessionToken } from './modules/tokens/tokens.service'
import { createService, type Service, type ServiceOptions } from './service'
import { describeSchedule, startBackupSchedule } from './db/backup-schedule'

export interface HeadlessOptions extends ServiceOptions {
  host: string
  port: number
  uiRoot: string | null
  version: string
  log: (line: string) => void
  /** Where warnings go (serve: stderr); `log` when absent. */
  warn?: (line: string) => void
  /** PEM certificate and key: HTTPS only (serve --tls-cert/--tls-key). */
  tls?: { cert: Buffer; key: Buffer }
  /** Scheduled backups (serve --backup-every/--backup-keep/--backup-dir); SQLite only. */
  backups?: { everyMs: number; keep: number; dir: string | null }
}

/** Where the store's work runs, for the banner. */
function threadsOf(service: Service): string {
  if (service.handle.kind === 'postgres') return `PostgreSQL through a pool of ${service.handle.pg?.options.max ?? '?'} connections`
  const readers = service.handle.readPool?.threads ?? 0
  if (!service.handle.writer.threaded) return 'every query on the main thread'
  return `writes on the writer thread, reads on ${readers} reader thread${readers === 1 ? '' : 's'}`
}

/**
 * Names a damaged store in serve's output (issue 36): what the check on open found at once, and
 * later, once, damage a large store's background check or a read meets. The service keeps serving
 * what it can read.
 */
function reportStoreHealth(service: Service, log: (line: string) => void, warn: (line: string) => void): void {
  const { health } = service.handle
  if (health.damage) warn(`Warning: ${health.damage.message}`)
  else health.onDamage((damage) => warn(`Warning: ${damage.message}`))
  const background = service.storeCheck?.background
  if (!background) return
  log('Checking the store (SQLite quick_check) in the background: a large store takes a while; requests are answered meanwhile')
  void background.then((problems) => problems.length || log('Store check: no damage found'))
}

/** The headless service: store, HTTP listener and console, as `callscope serve` runs them. */
export async function startHeadless(options: HeadlessOptions) {
  const { log } = options
  log(`Callscope ${options.version}`)
  const service = await createService({
    ...options,
    onMigrating: (pending) => log(`Updating the store's schema (${pending.join(', ')}); once, and a store of millions of call logs takes a minute or less…`),
    onRestoringIndexes: () => log('Rebuilding the call log indexes a pull killed while loading in bulk left out (its rows are kept; the next pull resumes)…'),
  })
  try {
    log(`Database: ${service.database.path}${service.isNew ? ' (new)' : ''}; ${threadsOf(service)}`)
    reportStoreHealth(service, log, options.warn ?? log)
    if (service.seeded) {
      const s = service.seeded
      log(`Seeded demo data: ${s.tenants} tenants, ${s.agents} agents, ${s.conversations} sessions, ${s.callLogs} call logs (${s.ms} ms)`)
    }
    if (options.envToken) {
      log('Admin token: taken from CALLSCOPE_TOKEN')
    } else if ((await service.tokens.countActiveAdmins()) === 0) {
      const { token } = await service.tokens.create({ name: 'initial admin', role: 'admin' })
      log(`Admin token (shown once; keep it, or create another with "callscope token create"): ${token}`)
    }
    if (!isLoopback(options.host)) {
      log(`Warning: listening on ${options.host}, not loopback: other machines can reach this port${options.tls ? '' : ', and it speaks plain HTTP'}.`)
    }
    const hostGuard = createHostGuard(options.host)
    const runtime: RuntimeInfo = { mode: 'headless', listenerUrl: null }
    const app = createHttpApp({ service, version: options.version, hostGuard, uiRoot: options.uiRoot, runtime })
    const listener = await startListener(app, { host: options.host, port: options.port, hostGuard, tls: options.tls })
    runtime.listenerUrl = listener.url
    // A sign-in link for this run only: the token lives in this process's memory, and in the URL
    // fragment, which browsers never send to the server.
    const consoleToken = createSessionToken()
    service.tokens.acceptForThisProcess(consoleToken)
    log(`Console (sign-in link for this run): ${listener.url}/console/#token=${consoleToken}`)
    // Started once the listener answers (the first backup may be due at once, on a thread of its
    // own); a failed backup is warned and the schedule goes on (db/backup-schedule.ts).
    const backups = options.backups
      ? startBackupSchedule({ storePath: service.database.path, ...options.backups, backup: (file) => service.database.backup(file), log, warn: options.warn ?? log })
      : null
    if (backups) log(`Backups: ${describeSchedule(options.backups!)} into ${backups.dir}; the sealing key ${service.database.path}.key is not in them: keep a copy of it with them`)
    log(`Listening on ${listener.url}`)
    return {
      service,
      listener,
      backups,
      async stop() {
        backups?.stop()
        await listener.close()
        await service.close()
      },
    }
  } catch (error) {
    await service.close()
    throw error
  }
}
