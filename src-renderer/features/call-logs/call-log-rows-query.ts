import type { QueryClient } from '@tanstack/react-query'
import type { TRPCOptionsProxy } from '@trpc/tanstack-react-query'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import type { AppRouter } from '../../lib/trpc'

const PAGE_SIZE = 200

/** The call log table's rows: keyset pages of PAGE_SIZE, newest first. */
export const callLogRowsOptions = (trpc: TRPCOptionsProxy<AppRouter>, filter: CallLogFilterInput) =>
  trpc.callLogs.search.infiniteQueryOptions({ filter, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.nextCursor })

/**
 * Starts fetching the first rows of a call logs URL as soon as the router moves there, before
 * React renders the page: the page's own query then joins the request in flight instead of
 * issuing it after the render and commit of the new filter.
 */
export function prefetchCallLogRows(queryClient: QueryClient, trpc: TRPCOptionsProxy<AppRouter>, search: string): void {
  // A histogram still being counted belongs to the filter being left; cancelling it (its request
  // aborts, the server stops at its next slice) frees the connection for the rows. The facets and
  // the count by are subscriptions: they end as the page renders the new filter (use-progress-steps.ts).
  void queryClient.cancelQueries({ queryKey: trpc.callLogs.histogram.queryKey() })
  // The link is read by the page's own reader (zod, in a chunk of its own, which the page needs
  // too), so the filter prefetched is the one the page asks for, and a bad value is never sent.
  void import('./link-filter').then(({ filterOfLink, asksForRows }) => {
    const filter = filterOfLink(search)
    // A query that does not parse is never sent (a 400 in the browser's console otherwise).
    if (asksForRows(filter)) void queryClient.prefetchInfiniteQuery(callLogRowsOptions(trpc, filter))
  })
}
