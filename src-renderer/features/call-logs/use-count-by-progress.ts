import { useSubscription } from '@trpc/tanstack-react-query'
import type { CallLogCountBy, CallLogCountByInput } from '../../../src-shared/schemas/call-log-count-by'
import { useTRPC } from '../../lib/trpc'
import { type Progress, useProgressSteps } from './use-progress-steps'

/** What the count-by panel shows of a count under way. */
export type CountByProgress = Progress<CallLogCountBy>

/**
 * Count by as it goes (tRPC `callLogs.countByProgress`, Server-Sent Events as the live tail): a
 * count that reads the lines themselves answers after each wave of time slices, newest first, and
 * each answer is drawn as it comes. A new key, filter or N starts over.
 */
export function useCountByProgress(input: CallLogCountByInput, enabled: boolean): CountByProgress {
  const trpc = useTRPC()
  const { progress, handlers } = useProgressSteps<CallLogCountBy>(input, enabled)
  useSubscription(trpc.callLogs.countByProgress.subscriptionOptions(input, { enabled, ...handlers }))
  return progress
}
