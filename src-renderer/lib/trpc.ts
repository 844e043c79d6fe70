import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpBatchLink, type TRPCLink } from '@trpc/client'
import { createTRPCContext } from '@trpc/tanstack-react-query'
import type { AppRouter } from '../../src-main/transport/app-router'
import { getToken } from './auth'

/** The one tRPC client. Pages never know which link carries it. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()

declare global {
  interface Window {
    /** Present in the desktop app: the preload's IPC bridge. */
    callscope?: { desktop: true; ipcLink?: () => TRPCLink<AppRouter> }
  }
}

/** IPC in the desktop app; HTTP to /trpc with the tab's bearer token in a browser. */
function pickLink(): TRPCLink<AppRouter> {
  const ipc = window.callscope?.ipcLink
  if (ipc) return ipc()
  return httpBatchLink({
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
