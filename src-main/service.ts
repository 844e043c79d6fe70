import { existsSync } from 'node:fs'
import { type DatabaseHandle, openStore } from './db/connection'
import { checkOnOpen, type OpenCheck } from './db/open-check'
import { checkHeader, type HeaderCheck } from './db/store-check'
import { toStoreFault } from './db/store-faults'
import { damagedMessage, StoreDamagedError } from '../src-shared/store-faults'
import { migrateToLatest, pendingMigrations, schemaVersion } from './db/migrate'
import { openPostgresStore } from './db/pg-connection'
import { ensurePartitionsAhead } from './db/pg-partitions'
import { isPostgresUrl } from './db/store-kind'
import { defaultReaders } from './db/read-pool'
import { createAgentsService } from './modules/agents/agents.service'
import { createConversationsService } from './modules/conversations/conversations.service'
import { createOverviewService } from './modules/overview/overview.service'
import { createDatabaseService } from './modules/database/database.service'
import { createCallLogsService } from './modules/call-logs/call-logs.service'
import { maxSeq } from './modules/call-logs/call-logs.tail.repo'
import { finishOrphanedBulkLoadsJob } from './modules/call-logs/call-logs.write-jobs'
import { createStoreWatch } from './modules/call-logs/store-watch'
import { createImportsService } from './modules/imports/imports.service'
import { createCallsService } from './modules/calls/calls.service'
import { createPullSyncsService } from './modules/pull/pull-syncs.service'
import { createPullsService } from './modules/pull/pulls.service'
import { createProvidersService, secretBoxFor, secretBoxForServer } from './modules/providers/providers.service'
import { createWebhooksService } from './modules/webhooks/webhooks.service'
import { createSipTrunksService } from './modules/sip-trunks/sip-trunks.service'
import { createSessionsService } from './modules/sessions/sessions.service'
import { createSourcesService } from './modules/sources/sources.service'
import { createPushService } from './modules/push/push.service'
import { createSquadsService } from './modules/squads/squads.service'
import { createTenantsService } from './modules/tenants/tenants.service'
import { createTokenService } from './modules/tokens/tokens.service'
import { createSavedViewsService } from './modules/saved-views/saved-views.service'
import { createStoreHealthService } from './modules/store-health/store-health.service'
import { seedJob } from './modules/database/database.write-jobs'
import { type OpenScratchStore, seedPostgres } from './modules/database/pg-seed'
import { floorToHour, type SeedResult } from './seed'
import type { SeedScaleName } from './seed/scales'
import { writerEntry } from './writer/writer-entry'

export interface ServiceOptions {
  /** Database file, `:memory:`, or a PostgreSQL server's URL (`postgres://user@host:port/db`: team mode, issue 20). */
  dbPath: string
  /** PostgreSQL only: most connections the pool opens (db/pg-connection.ts DEFAULT_PG_POOL_SIZE). */
  poolSize?: number
  /** PostgreSQL only: the file holding the key that seals provider keys and webhook secrets (absent: in memory). */
  keyFile?: string
  /** Accepted as an admin bearer token without being stored (CALLSCOPE_TOKEN). */
  envToken?: string
  /** Seed a database that did not exist before with demo data of this scale; false to leave it empty. */
  seedNewDatabase?: SeedScaleName | false
  /** Alternative better-sqlite3 binding (the desktop app's Electron build). */
  nativeBinding?: string
  /**
   * Reader threads for the store's SELECTs (db/read-pool.ts); with any, the writing connection gets
   * a thread of its own too (db/writer-thread.ts), so the thread that answers requests runs no SQL.
   * One per core by default. One-shot CLI commands pass 0: everything on their one thread.
   */
  readers?: number
  /** Told, before they run, the migrations an existing store is about to get (a large store takes a while). */
  onMigrating?: (pending: string[]) => void
  /** Told when the store opens with a bulk load a killed process left, before its indexes are put back (seconds for a million rows). */
  onRestoringIndexes?: () => void
  /** Waits before each webhook delivery attempt (tests shorten it; default: the documented schedule). */
  webhookRetrySchedule?: readonly number[]
  /** Milliseconds since the epoch for the defaults that follow the clock (squad analytics' last 30 days); tests pin it. Default: Date.now. */
  clock?: () => number
}

/** A scratch SQLite store as the service opens its own: the seed of a PostgreSQL store runs there first. */
const openScratch: OpenScratchStore = (path) => openStore({ path, readers: 1, writerEntry: writerEntry() })

/**
 * Builds everything below the transports: the store (migrated to the newest schema) and the
 * domain services. Both entries (Electron main and headless `serve`) call this and nothing else.
 */
export async function createService(options: ServiceOptions) {
  const postgres = isPostgresUrl(options.dbPath)
  let isNew = postgres ? false : options.dbPath === ':memory:' || !existsSync(options.dbPath)
  // A store file's header is read before SQLite opens it: one it cannot open at all is named here (issue 36).
  const header: HeaderCheck | null = postgres || isNew ? null : checkHeader(options.dbPath)
  if (header && !header.opens) {
    const details = { storePath: options.dbPath }
    throw new StoreDamagedError(damagedMessage('Opening the store', details, header.problems.join('; ')), details)
  }
  const handle: DatabaseHandle = postgres
    ? openPostgresStore({ url: options.dbPath, poolSize: options.poolSize })
    : await openStore({
        path: options.dbPath,
        nativeBinding: options.nativeBinding,
        readers: options.readers ?? defaultReaders(),
        writerEntry: writerEntry(),
      }).catch((error: unknown) => {
        throw toStoreFault(error, options.dbPath, 'Opening the store')
      })
  let seeded: SeedResult | null = null
  let storeCheck: OpenCheck | null = null
  try {
    // A PostgreSQL database is new when no migration has run on it (it exists before we connect).
    if (postgres) isNew = (await schemaVersion(handle.db)).applied === 0
    if (!isNew && options.onMigrating) {
      const pending = await pendingMigrations(handle.db)
      if (pending.length) options.onMigrating(pending)
    }
    await migrateToLatest(handle.db)
    if (postgres) await ensurePartitionsAhead(handle.db)
    else await handle.writer.run(finishOrphanedBulkLoadsJob, {}, () => options.onRestoringIndexes?.())
    const scale = options.seedNewDatabase ?? 'small'
    if (isNew && scale) {
      const seedOptions = { scale, seed: 1, anchor: floorToHour(Date.now()) }
      seeded = postgres ? await seedPostgres(handle, seedOptions, openScratch) : await handle.writer.run(seedJob, seedOptions)
    }
    if (header) storeCheck = await checkOnOpen(handle, header)
  } catch (error) {
    await handle.close()
    throw postgres ? error : toStoreFault(error, options.dbPath, 'Opening the store')
  }
  const tokens = createTokenService(handle.db, { envToken: options.envToken })
  const pulls = createPullsService(handle.db, handle.writer)
  const syncs = createPullSyncsService(handle.db, pulls)
  const database = createDatabaseService(handle, { openScratch, backupThreadEntry: writerEntry() })
  const storeWatch = createStoreWatch(() => maxSeq(handle.db))
  // One box seals provider keys and webhook secrets: one key file beside the store.
  const secretBox = postgres ? secretBoxForServer(options.keyFile) : secretBoxFor(handle.path)
  const calls = createCallsService(handle.db)
  const sources = createSourcesService(handle.db)
  const webhooks = createWebhooksService(handle.db, { secretBox, calls, retrySchedule: options.webhookRetrySchedule })

  return {
    handle,
    db: handle.db,
    tokens,
    tenants: createTenantsService(handle.db),
    sessions: createSessionsService(handle.db, handle.json),
    agents: createAgentsService(handle.db),
    conversations: createConversationsService(handle.db),
    overview: createOverviewService(handle.db),
    callLogs: createCallLogsService(handle.db, handle.json, { watch: storeWatch }),
    imports: createImportsService(handle.db, handle.writer, { storePath: handle.path }),
    pulls,
    syncs,
    squads: createSquadsService(handle.db, { now: options.clock }),
    sources,
    push: createPushService(handle.db, sources),
    providers: createProvidersService(handle.db, { dbPath: handle.path, secretBox }),
    sipTrunks: createSipTrunksService(handle.db),
    calls,
    webhooks,
    savedViews: createSavedViewsService(handle.db),
    /** Damage and refused writes, for the console's banner. */
    storeHealth: createStoreHealthService(handle.health),
    /** What the live tails wait on; `waiting()` counts them. */
    storeWatch,
    /** Demo data written because the database was new, if any. */
    seeded,
    /** The check of an existing SQLite store on open (db/open-check.ts): what it found, and a large store's background check. */
    storeCheck,
    isNew,
    database,
    /** Path, size, schema and row counts of the store (`db info`, Settings). */
    info: database.info,
    async close() {
      await storeCheck?.stop()
      storeWatch.close()
      await webhooks.close()
      await syncs.stopAll()
      await pulls.stopAll()
      await handle.close()
    },
  }
}

export type Service = Awaited<ReturnType<typeof createService>>
