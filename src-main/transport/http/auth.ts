import type { MiddlewareHandler } from 'hono'
import type { Principal, TokenService } from '../../modules/tokens/tokens.service'

export type AuthEnv = { Variables: { principal: Principal } }

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i

/**
 * Bearer authentication: 401 with `WWW-Authenticate: Bearer` when the header is missing, malformed
 * or names an unknown or revoked token. The scheme is matched case-insensitively (RFC 7235).
 */
export function requireBearer(tokens: TokenService): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    const result = await authenticateHeader(tokens, c.req.header('authorization'))
    if ('failure' in result) return unauthorized(result.failure.detail, result.failure.error)
    c.set('principal', result.principal)
    await next()
  }
}

export type AuthResult =
  | { principal: Principal }
  | { failure: { detail: string; error?: 'invalid_request' | 'invalid_token' } }

/** Reads an Authorization header: the one place that decides who a caller is, for REST and tRPC. */
export async function authenticateHeader(tokens: TokenService, header: string | undefined): Promise<AuthResult> {
  if (!header) return { failure: { detail: 'Not authenticated' } }
  const match = BEARER.exec(header)
  if (!match) return { failure: { detail: 'Invalid authentication credentials', error: 'invalid_request' } }
  const principal = await tokens.authenticate(match[1]!)
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

/** 403 for principals without the admin role (the `/admin/*` operations). */
export const requireAdmin: MiddlewareHandler<AuthEnv> = async (c, next) => {
  if (c.get('principal').role !== 'admin') {
    return c.json({ detail: 'Not enough permissions: this operation needs an admin token' }, 403)
  }
  await next()
}
