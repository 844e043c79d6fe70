import { existsSync, statSync } from 'node:fs'
import { type DatabaseHandle, openDatabase } from './db/connection'
import { migrateToLatest, type SchemaVersion, schemaVersion } from './db/migrate'
import { createAgentsService } from './modules/agents/agents.service'
import { createConversationsService } from './modules/conversations/conversations.service'
import { createOverviewService } from './modules/overview/overview.service'
import { createCallLogsService } from './modules/call-logs/call-logs.service'
import { createImportsService } from './modules/imports/imports.service'
import { createPullsService } from './modules/pull/pulls.service'
import { createProvidersService } from './modules/providers/providers.service'
import { createSipTrunksService } from './modules/sip-trunks/sip-trunks.service'
import { createSessionsService } from './modules/sessions/sessions.service'
import { createSquadsService } from './modules/squads/squads.service'
import { createTenantsService } from './modules/tenants/tenants.service'
import { createTokenService } from './modules/tokens/tokens.service'
import { floorToHour, seedDatabase, type SeedResult } from './seed'
import type { SeedScaleName } from './seed/scales'

export interface ServiceOptions {
  /** Database file, or `:memory:`. */
  dbPath: string
  /** Accepted as an admin bearer token without being stored (CALLSCOPE_TOKEN). */
  envToken?: string
  /** Seed a database that did not exist before with demo data of this scale; false to leave it empty. */
  seedNewDatabase?: SeedScaleName | false
  /** Alternative better-sqlite3 binding (the desktop app's Electron build). */
  nativeBinding?: string
}

/** Row counts of the tables people ask about, for `db info` and the settings page. */
const COUNTED_TABLES = [
  'tenants',
  'agents',
  'squads',
  'squad_members',
  'conversations',
  'messages',
  'calls',
  'call_logs',
  'transfers',
  'sip_inbound_trunks',
  'provider_credentials',
  'api_tokens',
  'imports',
  'pulls',
  'pulled_documents',
] as const

export interface DatabaseInfo {
  path: string
  sizeBytes: number | null
  schema: SchemaVersion
  counts: Record<(typeof COUNTED_TABLES)[number], number>
}

/**
 * Builds everything below the transports: the store (migrated to the newest schema) and the
 * domain services. Both entries (Electron main and headless `serve`) call this and nothing else.
 */
export async function createService(options: ServiceOptions) {
  const isNew = options.dbPath === ':memory:' || !existsSync(options.dbPath)
  const handle: DatabaseHandle = openDatabase({ path: options.dbPath, nativeBinding: options.nativeBinding })
  let seeded: SeedResult | null = null
  try {
    await migrateToLatest(handle.db)
    const scale = options.seedNewDatabase ?? 'small'
    if (isNew && scale) {
      seeded = seedDatabase(handle, { scale, seed: 1, anchor: floorToHour(Date.now()) })
    }
  } catch (error) {
    await handle.close()
    throw error
  }
  const tokens = createTokenService(handle.db, { envToken: options.envToken })
  const pulls = createPullsService(handle.db, handle.sqlite)

  async function info(): Promise<DatabaseInfo> {
    const counts = Object.fromEntries(
      await Promise.all(
        COUNTED_TABLES.map(async (table) => {
          const row = await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
          return [table, Number(row.n)] as const
        }),
      ),
    ) as DatabaseInfo['counts']
    const sizeBytes = handle.path === ':memory:' ? null : fileSize(handle.path)
    return { path: handle.path, sizeBytes, schema: await schemaVersion(handle.db), counts }
  }

  return {
    handle,
    db: handle.db,
    tokens,
    tenants: createTenantsService(handle.db),
    sessions: createSessionsService(handle.db),
    agents: createAgentsService(handle.db),
    conversations: createConversationsService(handle.db),
    overview: createOverviewService(handle.db),
    callLogs: createCallLogsService(handle.db),
    imports: createImportsService(handle.db, handle.sqlite),
    pulls,
    squads: createSquadsService(handle.db),
    providers: createProvidersService(handle.db, { dbPath: handle.path }),
    sipTrunks: createSipTrunksService(handle.db),
    /** Demo data written because the database was new, if any. */
    seeded,
    isNew,
    info,
    async close() {
      await pulls.stopAll()
      await handle.close()
    },
  }
}

function fileSize(path: string): number {
  // The WAL holds committed pages not yet checkpointed: part of the database's real size.
  const size = (p: string) => (existsSync(p) ? statSync(p).size : 0)
  return size(path) + size(`${path}-wal`)
}

export type Service = Awaited<ReturnType<typeof createService>>
