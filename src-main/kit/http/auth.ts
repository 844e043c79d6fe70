import type { MiddlewareHandler } from 'hono'
import { assertAdmin, type Principal } from '../access'

export type AuthEnv = { Variables: { principal: Principal } }

/** Who a presented bearer token belongs to; null for an unknown or revoked one (the tokens service). */
export type Authenticate = (token: string) => Promise<Principal | null>

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/**
 * Bearer authentication: 401 with `WWW-Authenticate: Bearer` when the header is missing, malformed
 * or names an unknown or revoked token. The scheme is matched case-insensitively (RFC 7235).
 */
export function requireBearer(authenticate: Authenticate): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const result = await authenticateHeader(authenticate, c.req.header('authorization'))
    if ('failure' in result) return unauthorized(result.failure.detail, result.failure.error)
    c.set('principal', result.principal)
    await next()
  }
}

export type AuthResult =
  | { principal: Principal }
  | { failure: { detail: string; error?: 'invalid_request' | 'invalid_token' } }

/** Reads an Authorization header: the one place that decides who a caller is, for REST and tRPC. */
export async function authenticateHeader(authenticate: Authenticate, header: string | undefined): Promise<AuthResult> {
  if (!header) return { failure: { detail: 'Not authenticated' } }
  const match = BEARER.exec(header)
  if (!match) return { failure: { detail: 'Invalid authentication credentials', error: 'invalid_request' } }
  const principal = await authenticate(match[1]!)
  if (!principal) return { failure: { detail: 'Invalid or revoked token', error: 'invalid_token' } }
  return { principal }
}

function unauthorized(detail: string, error?: 'invalid_request' | 'invalid_token'): Response {
  return Response.json(
    { detail },
    {
      status: 401,
      headers: { 'WWW-Authenticate': error ? `Bearer error="${error}"` : 'Bearer' },
    },
  )
}

/** 403 for principals without the admin role (the `/admin/*` operations): kit/access decides, the error table answers. */
export const requireAdmin: MiddlewareHandler<AuthEnv> = async (c, next) => {
  assertAdmin(c.get('principal'))
  await next()
}
