import { QueryClient } from '@tanstack/react-query'
import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/client'
import { EventSource } from 'eventsource'
import { createTRPCContext } from '@trpc/tanstack-react-query'
// The renderer's one import from the main process's code: a type, erased at build. All else it
// knows of the API is inferred from it (lib/api-types.ts) or comes from the shared schemas.
import type { AppRouter } from '../../src-main/server/app-router'
import type { DesktopBridge } from '../../src-shared/ipc'
import { getToken } from './auth'
import { ipcFetch, ipcStreamFetch } from './ipc-fetch'
import { getSource, sourceHeaders } from './source-scope'

export type { AppRouter }

/** The one tRPC client. Pages never know which link carries it. */
export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>()

declare global {
  interface Window {
    /** Present in the desktop app: the preload's IPC bridge. */
    callscope?: DesktopBridge
  }
}

/**
 * IPC in the desktop app; HTTP to /trpc with the tab's bearer token in a browser. Both are the
 * same link, so requests and errors behave the same on either channel. Not batched: a batch
 * answers when its slowest query does, and a page's rows must not wait for its aggregates.
 * Subscriptions (the live tail) are Server-Sent Events on either channel, read by the eventsource
 * package's EventSource, which takes a fetch: so over HTTP the token goes in the Authorization
 * header (never in the URL, where the browser's EventSource would put it), and over IPC the
 * stream comes through the main process.
 */
function pickLink(): TRPCLink<AppRouter> {
  const bridge = window.callscope
  if (bridge?.desktop) {
    return splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: 'http://callscope.ipc/trpc', EventSource, eventSourceOptions: { fetch: ipcStreamFetch(bridge, getSource) } }),
      false: httpLink({ url: 'http://callscope.ipc/trpc', fetch: ipcFetch(bridge, getSource) }),
    })
  }
  const authorization = (): Record<string, string> => {
    const token = getToken()
    return { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...sourceHeaders() }
  }
  return splitLink({
    condition: (op) => op.type === 'subscription',
    true: httpSubscriptionLink({
      url: '/trpc',
      EventSource,
      eventSourceOptions: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...authorization() } }) },
    }),
    false: httpLink({ url: '/trpc', headers: authorization }),
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
