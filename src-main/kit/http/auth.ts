import type { MiddlewareHandler } from 'hono'
import { assertAdmin, narrowToSource, type Principal } from '../access'

/** `sourceScope`: the stored key of the source a request asked for (source-param.ts), if it did. */
export type AuthEnv = { Variables: { principal: Principal; sourceScope?: string } }

/** What the tokens service answers for a stored token whose expiry has passed. */
export const TOKEN_EXPIRED = 'expired'

/**
 * Who a presented bearer token belongs to (the tokens service): null for an unknown or revoked
 * one, TOKEN_EXPIRED for one past its expiry, so the answer can say why.
 */
export type Authenticate = (token: string) => Promise<Principal | typeof TOKEN_EXPIRED | null>

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/**
 * Bearer authentication: 401 with `WWW-Authenticate: Bearer` when the header is missing, malformed
 * or names an unknown, revoked or expired token. The scheme is matched case-insensitively (RFC 7235).
 */
export function requireBearer(authenticate: Authenticate): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const result = await authenticateHeader(authenticate, c.req.header('authorization'))
    if ('failure' in result) return unauthorized(result.failure)
    const scope = c.get('sourceScope')
    if (scope === undefined) c.set('principal', result.principal)
    else {
      const narrowed = narrowToSource(result.principal, scope)
      if (!narrowed) return Response.json({ detail: outsideToken(result.principal.source!) }, { status: 403 })
      c.set('principal', narrowed)
    }
    await next()
  }
}

/** Why a token bound to one source may not read another. */
export const outsideToken = (bound: string): string =>
  `Not enough permissions: this token reads only the source '${bound === '' ? 'local' : bound}'; leave out source or name that one`

export interface AuthFailure {
  detail: string
  error?: 'invalid_request' | 'invalid_token'
  /** RFC 6750's error_description, for a refusal a client can act on (an expired token). */
  description?: string
}

export type AuthResult = { principal: Principal } | { failure: AuthFailure }

/** RFC 6750, section 3.1's own example of an error_description. */
const EXPIRED = 'The access token expired'

/** Reads an Authorization header: the one place that decides who a caller is, for REST and tRPC. */
export async function authenticateHeader(authenticate: Authenticate, header: string | undefined): Promise<AuthResult> {
  if (!header) return { failure: { detail: 'Not authenticated' } }
  const match = BEARER.exec(header)
  if (!match) return { failure: { detail: 'Invalid authentication credentials', error: 'invalid_request' } }
  const principal = await authenticate(match[1]!)
  if (principal === TOKEN_EXPIRED) return { failure: { detail: EXPIRED, error: 'invalid_token', description: EXPIRED } }
  if (!principal) return { failure: { detail: 'Invalid or revoked token', error: 'invalid_token' } }
  return { principal }
}

/** The challenge of RFC 6750, section 3: the scheme, then the error and its description when known. */
function challenge({ error, description }: AuthFailure): string {
  if (!error) return 'Bearer'
  return description ? `Bearer error="${error}", error_description="${description}"` : `Bearer error="${error}"`
}

function unauthorized(failure: AuthFailure): Response {
  return Response.json({ detail: failure.detail }, { status: 401, headers: { 'WWW-Authenticate': challenge(failure) } })
}

/** 403 for principals without the admin role (the `/admin/*` operations): kit/access decides, the error table answers. */
export const requireAdmin: MiddlewareHandler<AuthEnv> = async (c, next) => {
  assertAdmin(c.get('principal'))
  await next()
}
