import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpLink, type TRPCLink } from '@trpc/client'
import { createTRPCContext } from '@trpc/tanstack-react-query'
// The renderer's one import from the main process's code: a type, erased at build. All else it
// knows of the API is inferred from it (lib/api-types.ts) or comes from the shared schemas.
import type { AppRouter } from '../../src-main/server/app-router'
import type { DesktopBridge } from '../../src-shared/ipc'
import { getToken } from './auth'

export type { AppRouter }

/** The one tRPC client. Pages never know which link carries it. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()

declare global {
  interface Window {
    /** Present in the desktop app: the preload's IPC bridge. */
    callscope?: DesktopBridge
  }
}

/** A fetch that hands the request to the main process over IPC instead of the network. */
function ipcFetch(bridge: DesktopBridge): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input))
    const answer = await bridge.trpc({
      url: `${url.pathname.replace(/^\/trpc/, '')}${url.search}`,
      method: init?.method === 'POST' ? 'POST' : 'GET',
      body: typeof init?.body === 'string' ? init.body : undefined,
    })
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  }
}

/**
 * IPC in the desktop app; HTTP to /trpc with the tab's bearer token in a browser. Both are the
 * same link, so requests and errors behave the same on either channel. Not batched: a batch
 * answers when its slowest query does, and a page's rows must not wait for its aggregates.
 */
function pickLink(): TRPCLink<AppRouter> {
  const bridge = window.callscope
  if (bridge?.desktop) return httpLink({ url: 'http://callscope.ipc/trpc', fetch: ipcFetch(bridge) })
  return httpLink({
    url: '/trpc',
    headers: () => {
      const token = getToken()
      return token ? { Authorization: `Bearer ${token}` } : {}
    },
  })
}

export function createClients() {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        refetchOnWindowFocus: false,
        // 401/403/404/422 will not get better by asking again.
        retry: (count, error) => count < 2 && !/UNAUTHORIZED|FORBIDDEN|NOT_FOUND|BAD_REQUEST/.test(String((error as { data?: { code?: string } }).data?.code)),
      },
    },
  })
  const trpcClient = createTRPCClient<AppRouter>({ links: [pickLink()] })
  return { queryClient, trpcClient }
}
