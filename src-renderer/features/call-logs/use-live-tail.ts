import { useSubscription } from '@trpc/tanstack-react-query'
import { useCallback, useEffect, useReducer } from 'react'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { useTRPC } from '../../lib/trpc'
import { LIVE_TAIL_START, liveTailReducer } from './live-tail-state'

/**
 * Follows the filter's new lines while `enabled` (the explorer's Live switch): a tRPC
 * subscription over SSE, which reconnects by itself and resumes after the last batch it got.
 * A new filter, or switching off, starts the buffer over.
 */
export function useLiveTail(filter: CallLogFilterInput, enabled: boolean) {
  const trpc = useTRPC()
  const [state, dispatch] = useReducer(liveTailReducer, LIVE_TAIL_START)
  useEffect(() => dispatch({ type: 'reset' }), [filter, enabled])
  const subscription = useSubscription(
    trpc.callLogs.tail.subscriptionOptions({ filter, backlog: 0 }, { enabled, onData: (event) => dispatch({ type: 'lines', lines: event.data.lines }) }),
  )
  const pause = useCallback(() => dispatch({ type: 'pause' }), [])
  const resume = useCallback(() => dispatch({ type: 'resume' }), [])
  return { ...state, status: subscription.status, error: subscription.error, pause, resume }
}

export type LiveTail = ReturnType<typeof useLiveTail>
