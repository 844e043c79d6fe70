import { TRPCError } from '@trpc/server'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Hono } from 'hono'
import { narrowToSource } from '../kit/access'
import { type Authenticate, authenticateHeader, outsideToken } from '../kit/http/auth'
import type { RuntimeInfo } from '../kit/runtime'
import type { AppRouter } from './app-router'

/**
 * The console's tRPC channel when it runs in a browser: `/trpc`, with the same bearer tokens as
 * REST. Authentication happens in the context so a refusal comes back as a tRPC UNAUTHORIZED
 * error (HTTP 401) that the console can recognise and answer with its sign-in screen.
 */
export function mountTrpc(app: Hono<any>, appRouter: AppRouter, authenticate: Authenticate, runtime: RuntimeInfo): void {
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: async () => {
        const result = await authenticateHeader(authenticate, c.req.header('authorization'))
        if ('failure' in result) throw new TRPCError({ code: 'UNAUTHORIZED', message: result.failure.detail })
        // The console's source picker (kit/http/source-param.ts resolved it before this route).
        const scope = c.get('sourceScope') as string | undefined
        if (scope === undefined) return { principal: result.principal, runtime }
        const principal = narrowToSource(result.principal, scope)
        if (!principal) throw new TRPCError({ code: 'FORBIDDEN', message: outsideToken(result.principal.source!) })
        return { principal, runtime }
      },
    }),
  )
}
