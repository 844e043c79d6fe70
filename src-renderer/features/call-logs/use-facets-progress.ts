import { useSubscription } from '@trpc/tanstack-react-query'
import type { CallLogFacets } from '../../../src-shared/schemas/call-log-facets'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { useTRPC } from '../../lib/trpc'
import { type Progress, useProgressSteps } from './use-progress-steps'

export type FacetsProgress = Progress<CallLogFacets>

/**
 * The facets as they go (tRPC `callLogs.facetsProgress`), as count by's: a filter whose lines are
 * read answers after each wave of time slices, newest first, each drawn as it comes, marked
 * partial; index range counts are one answer. A new filter unsubscribes (the server stops before
 * its next wave) and starts over; the last counts stay until the new filter's first answer.
 */
export function useFacetsProgress(filter: CallLogFilterInput, enabled: boolean): FacetsProgress {
  const trpc = useTRPC()
  const input = { filter }
  const { progress, handlers } = useProgressSteps<CallLogFacets>(input, enabled)
  useSubscription(trpc.callLogs.facetsProgress.subscriptionOptions(input, { enabled, ...handlers }))
  return progress
}
