import { useSubscription } from '@trpc/tanstack-react-query'
import { useEffect, useState } from 'react'
import { flushSync } from 'react-dom'
import type { CallLogCountBy, CallLogCountByInput, CallLogCountByProgress } from '../../../src-shared/schemas/call-log-count-by'
import { useTRPC } from '../../lib/trpc'

/** What the count-by panel shows of a count under way. */
export interface CountByProgress {
  /** The newest answer: of this count (partial until `complete`), else of the last one, kept while this one starts. */
  answer: CallLogCountBy | undefined
  /** The answer is of this count's key, filter and N (not the last count's, kept for its place). */
  current: boolean
  /** Share of the range's time buckets read, 0–1 (1 once complete). */
  scanned: number
  complete: boolean
  /** Counting (no complete answer of this count yet, and no error). */
  running: boolean
  error: string | null
}

interface State {
  key: string
  step: CallLogCountByProgress | undefined
  stepKey: string | null
  error: string | null
}

/**
 * Count by as it goes (tRPC `callLogs.countByProgress`, Server-Sent Events as the live tail): a
 * count that reads the lines themselves answers after each wave of time slices, newest first, and
 * each answer is drawn as it comes (flushSync: answers that arrive in one network read would
 * otherwise be batched into one render, and the partial ones never seen). A new key, filter or N
 * starts over; the last answer stays until the new count's first one.
 */
export function useCountByProgress(input: CallLogCountByInput, enabled: boolean): CountByProgress {
  const trpc = useTRPC()
  const key = JSON.stringify(input)
  const [state, setState] = useState<State>({ key, step: undefined, stepKey: null, error: null })
  useEffect(() => setState((s) => ({ ...s, key, error: null })), [key, enabled])
  useSubscription(
    trpc.callLogs.countByProgress.subscriptionOptions(input, {
      enabled,
      onData: (step) => flushSync(() => setState((s) => (s.key === key ? { ...s, step, stepKey: key, error: null } : s))),
      onError: (error) => setState((s) => (s.key === key ? { ...s, error: error.message } : s)),
    }),
  )
  const current = state.stepKey === key && state.key === key
  const complete = current && state.step?.complete === true
  const error = state.key === key ? state.error : null
  return {
    answer: state.step?.answer,
    current,
    scanned: current ? (state.step?.scanned ?? 0) : 0,
    complete,
    running: enabled && !complete && error === null,
    error,
  }
}
