import type { Kysely } from 'kysely'
import { nonEmptyText } from '../../lib/non-empty-text'
import type { SIPInboundTrunkInfo } from 'livekit-server-sdk'
import type { SipTrunk, SipTrunkList } from '../../../src-shared/schemas/sip-trunk'
import type { Database } from '../../db/schema'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import {
  type LiveKitConnection,
  LiveKitUnavailableError,
  listLiveKitInboundTrunks,
  resolveLiveKitConfig,
} from './livekit-source'
import * as repo from './sip-trunks.repo'

export const DEFAULT_LIVEKIT_TIMEOUT_MS = 3000

export interface SipTrunksServiceOptions {
  /** LiveKit connection; each missing value is read from LIVEKIT_URL, LIVEKIT_API_KEY, LIVEKIT_API_SECRET in `env`. */
  livekit?: Partial<LiveKitConnection> | null
  /** Defaults to process.env. */
  env?: Record<string, string | undefined>
  /** Budget of one live listing; past it the stored copy is served. */
  timeoutMs?: number
  /** Write live listings back to the store (`source = 'livekit'`) so the fallback is current. Default true. */
  refreshStore?: boolean
  now?: () => Date
}

/** The subset of LiveKit's SIPInboundTrunkInfo this module reads (camelCase, as the SDK returns it). */
export type LiveKitInboundTrunk = Pick<
  SIPInboundTrunkInfo,
  | 'sipTrunkId'
  | 'name'
  | 'metadata'
  | 'numbers'
  | 'allowedAddresses'
  | 'allowedNumbers'
  | 'authUsername'
  | 'authPassword'
  | 'krispEnabled'
  | 'createdAt'
  | 'updatedAt'
>

/**
 * Metadata is free text on LiveKit. A JSON object is returned parsed; anything else (plain text,
 * JSON arrays, numbers, strings) is returned verbatim as the string it is; empty means null.
 */
export function parseMetadata(text: string | null | undefined): Record<string, unknown> | string | null {
  if (text === null || text === undefined || text === '') return null
  if (text.trimStart().startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text)
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
    } catch {
      // not JSON: kept as text
    }
  }
  return text
}

/** The `tenant_id` a trunk's JSON metadata names, if any. */
export function metadataTenantId(text: string | null | undefined): string | null {
  const metadata = parseMetadata(text)
  return nonEmptyText(metadata !== null && typeof metadata === 'object' ? metadata.tenant_id : undefined)
}

function stringArray(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json)
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

function authentication(username: string | null | undefined, passwordSet: boolean): SipTrunk['authentication'] {
  const name = username ? username : null
  return { required: name !== null || passwordSet, username: name, password_set: passwordSet }
}

export function fromStoredRow(row: repo.SipTrunkRow): SipTrunk {
  return {
    sip_trunk_id: row.sip_trunk_id,
    name: row.name,
    tenant_id: row.tenant_id,
    numbers: stringArray(row.numbers),
    allowed_addresses: stringArray(row.allowed_addresses),
    allowed_numbers: stringArray(row.allowed_numbers),
    authentication: authentication(row.auth_username, row.auth_password_set === 1),
    metadata: parseMetadata(row.metadata),
    krisp_enabled: row.krisp_enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** A protobuf Timestamp as ISO 8601 UTC with milliseconds; null when absent, zero or out of range. */
function isoTimestamp(timestamp: LiveKitInboundTrunk['createdAt']): string | null {
  if (!timestamp || (Number(timestamp.seconds) === 0 && timestamp.nanos === 0)) return null
  const date = timestamp.toDate()
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** LiveKit's trunk in Callscope's shape. The password is read only to say whether one is set. */
export function fromLiveKit(info: LiveKitInboundTrunk, tenantId: string | null): SipTrunk {
  return {
    sip_trunk_id: info.sipTrunkId,
    name: info.name ?? '',
    tenant_id: tenantId,
    numbers: [...(info.numbers ?? [])],
    allowed_addresses: [...(info.allowedAddresses ?? [])],
    allowed_numbers: [...(info.allowedNumbers ?? [])],
    authentication: authentication(info.authUsername, !!info.authPassword),
    metadata: parseMetadata(info.metadata),
    krisp_enabled: info.krispEnabled === true,
    created_at: isoTimestamp(info.createdAt),
    updated_at: isoTimestamp(info.updatedAt),
  }
}

/** SQLite's BINARY collation (UTF-8 byte order), so live and stored listings sort alike. */
const binary = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
export const byNameThenId = (a: SipTrunk, b: SipTrunk) => binary(a.name, b.name) || binary(a.sip_trunk_id, b.sip_trunk_id)

const visibleTo = (principal: Principal) => (trunk: SipTrunk) => canSeeTenant(principal, trunk.tenant_id)

export function createSipTrunksService(db: Kysely<Database>, options: SipTrunksServiceOptions = {}) {
  const config = resolveLiveKitConfig(options.livekit, options.env ?? process.env)
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIVEKIT_TIMEOUT_MS
  const refreshStore = options.refreshStore ?? true
  const now = options.now ?? (() => new Date())

  /**
   * A mirror's trunks: with no trunk of its own and no LiveKit, the list a pull fetched, as the
   * remote listed it (issue 15). Null when this store has trunks of its own or none was pulled.
   */
  async function fromPull(principal: Principal): Promise<SipTrunkList | null> {
    const source = sourceScope(principal)
    if (source === undefined && (await repo.hasStoredTrunks(db))) return null
    const rows = await repo.latestPulledTrunks(db, source)
    // A caller limited to one backend gets its list, empty when it was never pulled.
    if (!rows.length) return source === undefined ? null : { trunks: [], total: 0, source: 'pulled', fallback_reason: null, fetched_at: now().toISOString() }
    const trunks = rows.filter((r) => canSeeTenant(principal, r.tenant_id)).map((r) => JSON.parse(r.body) as SipTrunk)
    return { trunks, total: trunks.length, source: 'pulled', fallback_reason: null, fetched_at: rows[0]!.fetched_at }
  }

  async function fromStore(principal: Principal, fallbackReason: string | null): Promise<SipTrunkList> {
    // Callscope's own trunks only ('local'): never a pulled list.
    if (fallbackReason === null && sourceScope(principal) !== '') {
      const pulled = await fromPull(principal)
      if (pulled) return pulled
    }
    const rows = await repo.listStoredTrunks(db, tenantScope(principal))
    const trunks = rows.map(fromStoredRow)
    return {
      trunks,
      total: trunks.length,
      source: fallbackReason === null ? 'store' : 'store_fallback',
      fallback_reason: fallbackReason,
      fetched_at: now().toISOString(),
    }
  }

  /** Writes the live listing back; a failure here never fails the listing itself. */
  async function refresh(live: readonly LiveKitInboundTrunk[], mapped: readonly SipTrunk[], created: Map<string, string>) {
    const tenants = await repo.existingTenantIds(db, [...new Set(mapped.flatMap((t) => (t.tenant_id ? [t.tenant_id] : [])))])
    const stamp = now().toISOString()
    await repo.upsertLiveTrunks(
      db,
      mapped.map((trunk, i) => ({
        sip_trunk_id: trunk.sip_trunk_id,
        tenant_id: trunk.tenant_id && tenants.has(trunk.tenant_id) ? trunk.tenant_id : null,
        // The store requires a 1-255 character name; LiveKit allows an empty one.
        name: (trunk.name || trunk.sip_trunk_id).slice(0, 255),
        numbers: JSON.stringify(trunk.numbers),
        allowed_addresses: JSON.stringify(trunk.allowed_addresses),
        allowed_numbers: JSON.stringify(trunk.allowed_numbers),
        auth_username: trunk.authentication.username,
        auth_password_set: trunk.authentication.password_set ? 1 : 0,
        metadata: live[i]?.metadata ? live[i].metadata : null,
        krisp_enabled: trunk.krisp_enabled ? 1 : 0,
        source: 'livekit',
        created_at: trunk.created_at ?? created.get(trunk.sip_trunk_id) ?? stamp,
        updated_at: trunk.updated_at ?? stamp,
      })),
    )
  }

  async function fromLiveKitServer(principal: Principal, connection: LiveKitConnection): Promise<SipTrunkList> {
    const live = (await listLiveKitInboundTrunks(connection, timeoutMs)).filter((t) => !!t.sipTrunkId)
    const fetchedAt = now().toISOString()
    // LiveKit has no tenants: the stored mapping decides, else `tenant_id` in the trunk's JSON metadata.
    const stored = await repo.findTrunkMappings(db, live.map((t) => t.sipTrunkId))
    const storedTenant = new Map(stored.map((r) => [r.sip_trunk_id, r.tenant_id]))
    const created = new Map(stored.map((r) => [r.sip_trunk_id, r.created_at]))
    const mapped = live.map((info) =>
      fromLiveKit(info, storedTenant.get(info.sipTrunkId) ?? metadataTenantId(info.metadata)),
    )
    if (refreshStore) {
      try {
        await refresh(live, mapped, created)
      } catch (error) {
        console.warn('Could not refresh the stored SIP trunks from LiveKit:', error)
      }
    }
    const trunks = mapped.filter(visibleTo(principal)).sort(byNameThenId)
    return { trunks, total: trunks.length, source: 'livekit', fallback_reason: null, fetched_at: fetchedAt }
  }

  return {
    /**
     * Inbound SIP trunks, by name then id. Live from LiveKit when it is configured, else (or when it
     * cannot be used) the stored copy. A tenant-scoped principal sees only its tenant's trunks.
     */
    async list(principal: Principal): Promise<SipTrunkList> {
      const source = sourceScope(principal)
      // A pulled backend's trunks are what it listed, never this laptop's LiveKit.
      if (source !== undefined && source !== '') return (await fromPull(principal))!
      if (config.kind === 'none') return fromStore(principal, null)
      if (config.kind === 'incomplete') {
        return fromStore(principal, `LiveKit is not fully configured: ${config.missing.join(', ')} not set`)
      }
      try {
        return await fromLiveKitServer(principal, config.connection)
      } catch (error) {
        if (!(error instanceof LiveKitUnavailableError)) throw error
        return fromStore(principal, error.message)
      }
    },
  }
}

export type SipTrunksService = ReturnType<typeof createSipTrunksService>
