import { useQueryClient } from '@tanstack/react-query'
import { useSubscription } from '@trpc/tanstack-react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTRPC } from '../../lib/trpc'

/**
 * Follows a call's new lines (the live tail, filtered on the call) and reads the call again when
 * they come, so spans, turns and latencies grow as the call goes on. While `holding` (a turn or a
 * span is chosen: the user is reading), the lines are only counted, and shown on request.
 */
export function useCallLive(callId: string, holding: boolean) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const [pending, setPending] = useState(0)
  const holdingRef = useRef(holding)
  holdingRef.current = holding
  const refresh = useCallback(() => {
    setPending(0)
    void queryClient.invalidateQueries({ queryKey: trpc.calls.get.queryKey({ callId }) })
  }, [queryClient, trpc, callId])
  const subscription = useSubscription(
    trpc.callLogs.tail.subscriptionOptions(
      { filter: { callId }, backlog: 0 },
      {
        onData: (event) => {
          const n = event.data.lines.length
          if (n === 0) return
          if (holdingRef.current) setPending((p) => p + n)
          else refresh()
        },
      },
    ),
  )
  // Once following, read the call again: a line stored before the tail started is then in too.
  const following = subscription.status === 'pending'
  useEffect(() => {
    if (following) refresh()
  }, [following, refresh])
  // Done reading: what came meanwhile shows.
  useEffect(() => {
    if (!holding && pending > 0) refresh()
  }, [holding, pending, refresh])
  return { pending, refresh, status: subscription.status }
}
