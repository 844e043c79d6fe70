import type { MiddlewareHandler } from 'hono'
import { SOURCE_HEADER } from '../../../src-shared/schemas/sources'
import type { AuthEnv } from './auth'

/** The stored key of a source a request names, or why it names none (the sources service). */
export type ResolveSource = (name: string) => Promise<{ key: string } | { problem: string }>


/**
 * `?source=` on any operation (issue 15 pt 4), or the SOURCE_HEADER: limits what the request reads
 * to one source, `local` or a pulled backend. Resolved here, once, before the route: an unknown source is a 422 in
 * FastAPI's shape and nothing runs; a known one is left for requireBearer, which narrows the
 * caller's principal to it (or refuses a token bound to another source).
 */
export function sourceParam(resolve: ResolveSource): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    // URLSearchParams decodes leniently: a malformed escape elsewhere in the query is the route's to refuse.
    const fromQuery = new URL(c.req.url).searchParams.getAll('source')
    const header = c.req.header(SOURCE_HEADER)
    const names = fromQuery.length > 0 ? fromQuery : header === undefined ? undefined : [header]
    if (names === undefined) return next()
    const loc = fromQuery.length > 0 ? ['query', 'source'] : ['header', SOURCE_HEADER]
    const problem = (msg: string, input: unknown) => c.json({ detail: [{ type: 'value_error', loc, msg, input }] }, 422)
    if (names.length > 1) return problem('Give one source', names)
    const resolved = await resolve(names[0]!)
    if ('problem' in resolved) return problem(resolved.problem, names[0])
    c.set('sourceScope', resolved.key)
    await next()
  }
}
