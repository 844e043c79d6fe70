import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { TokenRole } from '../../../src-shared/constants'
import { restated, storeFaultKind } from '../../../src-shared/store-faults'
import { resolveTokenExpiry } from '../../../src-shared/token-lifetime'
import type { Database } from '../../db/schema'
import { OWNER, type Principal } from '../../kit/access'
import { InvalidInputError } from '../../kit/errors'
import { TOKEN_EXPIRED } from '../../kit/http/auth'
import * as repo from './tokens.repo'

export interface CreateTokenInput {
  name: string
  role: TokenRole
  tenantId?: string | null
  /** A lifetime in src-shared/token-lifetime.ts's words (`30d`, `2027-01-31`, ...); absent: never. */
  expires?: string
  /** The one source the token reads ('' Callscope's own rows, a pulled backend's base URL); absent: every source. */
  source?: string | null
}

export type TokenStatus = 'active' | 'expired' | 'revoked'

/** A stored token as listings show it: never its hash, with its status at the service's clock. */
export type TokenListing = repo.TokenRecord & { status: TokenStatus }

export interface CreatedToken {
  /** The secret, returned once and never stored. */
  token: string
  record: TokenListing
}

/** A token request the service refuses (a 400 on every transport, a usage error in the CLI). */
export class TokenError extends InvalidInputError {
  constructor(message: string) {
    super(message)
    this.name = 'TokenError'
  }
}

const TOKEN_PREFIX_LENGTH = 10
/** last_used_at is written at most this often per token, to keep reads from turning into writes. */
const TOUCH_INTERVAL_MS = 60_000

const sha256 = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest()

export interface TokenServiceOptions {
  /** Accepted as an admin token without being stored (CALLSCOPE_TOKEN). */
  envToken?: string
  /** The clock (epoch ms) that expiries are set and checked against; tests move it instead of waiting. */
  now?: () => number
}

/** Revoked first: a revoked token stays revoked whatever its expiry says. */
function statusAt(record: repo.TokenRecord, nowMs: number): TokenStatus {
  if (record.revoked_at) return 'revoked'
  return record.expires_at !== null && Date.parse(record.expires_at) <= nowMs ? 'expired' : 'active'
}

/** Tokens held only in this process's memory (the console sign-in link of one `serve` run). */
export function createSessionToken(): string {
  return `cs_session_${randomBytes(24).toString('base64url')}`
}

export function createTokenService(db: Kysely<Database>, options: TokenServiceOptions = {}) {
  const memoryTokenHashes: Buffer[] = options.envToken ? [sha256(options.envToken)] : []
  const now = options.now ?? (() => Date.now())
  const isoNow = () => new Date(now()).toISOString()

  async function create(input: CreateTokenInput): Promise<CreatedToken> {
    const tenantId = input.role === 'tenant' ? (input.tenantId ?? null) : null
    if (input.role === 'tenant' && !tenantId) throw new TokenError('a tenant token needs a tenant id')
    if (input.role !== 'tenant' && input.tenantId) {
      throw new TokenError(`a ${input.role} token is not scoped to a tenant; use role "tenant"`)
    }
    if (tenantId) {
      // Local or pulled (tenant_rows, migration 0018): a tenant token may read a mirrored tenant.
      const tenant = await db.selectFrom('tenant_rows').select('id').where('id', '=', tenantId).executeTakeFirst()
      if (!tenant) throw new TokenError(`tenant ${tenantId} not found`)
    }
    const createdMs = now()
    const expiry = resolveTokenExpiry(input.expires ?? 'never', createdMs)
    if ('problem' in expiry) throw new TokenError(`expires "${input.expires}" is invalid. ${expiry.problem}`)
    const token = `cs_${randomBytes(24).toString('base64url')}`
    const row = {
      id: randomUUID(),
      name: input.name,
      token_hash: sha256(token).toString('hex'),
      token_prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
      role: input.role,
      tenant_id: tenantId,
      created_at: new Date(createdMs).toISOString(),
      last_used_at: null,
      revoked_at: null,
      expires_at: expiry.expiresAt,
      source: input.source ?? null,
    }
    // The fault's message names the store, never the token: the secret and its hash stay here.
    await repo.insertToken(db, row).catch((error: unknown) => {
      throw restated(error, `Creating the token "${input.name}"`)
    })
    const { token_hash: _hash, ...record } = row
    return { token, record: { ...record, status: 'active' } }
  }

  /** Revokes the one token whose id or prefix starts with `key`. */
  async function revoke(key: string): Promise<TokenListing> {
    if (key.length < 4) throw new TokenError('give at least 4 characters of the token id or prefix')
    const matches = await repo.findTokensByKey(db, key)
    if (matches.length === 0) throw new TokenError(`no token matches "${key}"`)
    if (matches.length > 1) throw new TokenError(`"${key}" matches ${matches.length} tokens; give more characters`)
    const match = matches[0]!
    if (match.revoked_at) return { ...match, status: 'revoked' }
    const revokedAt = isoNow()
    await repo.markRevoked(db, match.id, revokedAt).catch((error: unknown) => {
      throw restated(error, `Revoking the token "${match.name}" (id ${match.id})`)
    })
    return { ...match, revoked_at: revokedAt, status: 'revoked' }
  }

  /** Checked at every use against the clock, so a token stops working the moment it expires. */
  async function authenticate(presented: string): Promise<Principal | typeof TOKEN_EXPIRED | null> {
    const hash = sha256(presented)
    if (memoryTokenHashes.some((known) => timingSafeEqual(hash, known))) {
      return OWNER
    }
    const row = await repo.findActiveByHash(db, hash.toString('hex'))
    if (!row || !timingSafeEqual(Buffer.from(row.token_hash, 'hex'), hash)) return null
    const usedMs = now()
    if (statusAt(row, usedMs) === 'expired') return TOKEN_EXPIRED
    if (!row.last_used_at || usedMs - Date.parse(row.last_used_at) >= TOUCH_INTERVAL_MS) {
      // When a token was last used is a hint, written at most once a minute: a full disk must not
      // turn every read with a stored token into a refusal (issue 36). It is written once there is room.
      await repo.touchLastUsed(db, row.id, new Date(usedMs).toISOString()).catch((error: unknown) => {
        if (storeFaultKind(error) !== 'full') throw error
      })
    }
    const principal: Principal = { role: row.role as TokenRole, tenantId: row.tenant_id, tokenId: row.id }
    return row.source === null ? principal : { ...principal, source: row.source, sourceBound: true }
  }

  return {
    create,
    revoke,
    authenticate,
    /** Accepts `token` as admin until the process ends; it is never stored. */
    acceptForThisProcess(token: string) {
      memoryTokenHashes.push(sha256(token))
    },
    async list(): Promise<TokenListing[]> {
      const listedMs = now()
      return (await repo.listTokens(db)).map((record) => ({ ...record, status: statusAt(record, listedMs) }))
    },
    countActiveAdmins: () => repo.countActiveAdmins(db, isoNow()),
  }
}

export type TokenService = ReturnType<typeof createTokenService>
