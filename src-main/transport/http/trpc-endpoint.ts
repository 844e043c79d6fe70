import { TRPCError } from '@trpc/server'
import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Service } from '../../service'
import { appRouter } from '../app-router'
import type { RuntimeInfo } from '../trpc'
import type { HttpApp } from './app'
import { authenticateHeader } from './auth'

/**
 * The console's tRPC channel when it runs in a browser: `/trpc`, with the same bearer tokens as
 * REST. Authentication happens in the context so a refusal comes back as a tRPC UNAUTHORIZED
 * error (HTTP 401) that the console can recognise and answer with its sign-in screen.
 */
export function registerTrpc(app: HttpApp, service: Service, runtime: RuntimeInfo): void {
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: async () => {
        const result = await authenticateHeader(service.tokens, c.req.header('authorization'))
        if ('failure' in result) throw new TRPCError({ code: 'UNAUTHORIZED', message: result.failure.detail })
        return { service, principal: result.principal, runtime }
      },
    }),
  )
}
