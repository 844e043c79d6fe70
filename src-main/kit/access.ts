import type { TokenRole } from '../../src-shared/constants'
import { ForbiddenError } from './errors'

/** Who is calling: what the transports hand to the services. */
export interface Principal {
  role: TokenRole
  /** Set for tenant-scoped tokens: only this tenant's data is visible. */
  tenantId: string | null
  /** Stored token id; null for the CALLSCOPE_TOKEN environment token. */
  tokenId: string | null
  /**
   * The one source whose rows the principal reads (issue 15 pt 4): '' Callscope's own (seeded,
   * created, imported), else a pulled backend's base URL. Absent: every source. Set by a token bound
   * to a source or narrowed per request (`?source=`, the console's source picker).
   */
  source?: string
  /** True when `source` comes from the token itself: no request may widen or change it. */
  sourceBound?: boolean
}

/** The desktop user owns the store, as does the environment token: admin over everything. */
export const OWNER: Principal = { role: 'admin', tenantId: null, tokenId: null }

/** A tenant-scoped principal sees only its own tenant: any other is "not found", not "forbidden". */
export function canSeeTenant(principal: Principal, tenantId: string | null): boolean {
  return principal.tenantId === null || principal.tenantId === tenantId
}

/** The tenant a principal's reads are limited to; undefined when it sees every tenant. */
export const tenantScope = (principal: Principal): string | undefined => principal.tenantId ?? undefined

/** The source a principal's reads are limited to; undefined when it sees every source. */
export const sourceScope = (principal: Principal): string | undefined => principal.source

/** A principal seeing only `source`, or null when it may not: a token bound to another source. */
export function narrowToSource(principal: Principal, source: string): Principal | null {
  if (principal.source !== undefined && principal.source !== source) return null
  return { ...principal, source }
}

/** The `/admin/*` operations and everything that writes the store: admin tokens only. */
export function assertAdmin(principal: Principal): void {
  if (principal.role !== 'admin') throw new ForbiddenError('Not enough permissions: this operation needs an admin token')
}

/** Store-wide figures (row counts, paths): admin and viewer tokens, not a tenant's. */
export function assertNotTenantScoped(principal: Principal, what: string): void {
  if (principal.role === 'tenant') throw new ForbiddenError(`Not enough permissions: ${what} need an admin or viewer token`)
}
