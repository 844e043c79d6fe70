import { fetchRequestHandler } from '@trpc/server/adapters/fetch'
import type { Service } from '../../service'
import { appRouter } from '../app-router'
import type { HttpApp } from './app'
import { requireBearer } from './auth'

/** The console's tRPC channel when it runs in a browser: `/trpc`, with the same bearer tokens as REST. */
export function registerTrpc(app: HttpApp, service: Service): void {
  app.use('/trpc/*', requireBearer(service.tokens))
  app.all('/trpc/*', (c) =>
    fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: () => ({ service, principal: c.get('principal') }),
    }),
  )
}
