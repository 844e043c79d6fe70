import { useEffect, useState } from 'react'
import { flushSync } from 'react-dom'

/** One answer of a count shown as it goes (count by's and the facets' `…Progress` subscriptions). */
export interface ProgressStep<A> {
  answer: A
  /** Share of the range read, 0–1. */
  scanned: number
  complete: boolean
}

/** What a panel shows of a count under way. */
export interface Progress<A> {
  /** The newest answer: of this count (partial until `complete`), else of the last one, kept while this one starts. */
  answer: A | undefined
  /** The answer is of this count's input (not the last count's, kept for its place). */
  current: boolean
  /** Share of the range read, 0–1 (1 once complete). */
  scanned: number
  complete: boolean
  /** Counting (no complete answer of this count yet, and no error). */
  running: boolean
  error: string | null
}

interface State<A> {
  key: string
  step: ProgressStep<A> | undefined
  stepKey: string | null
  error: string | null
}

/**
 * The state of a count shown as it goes, for one input: each answer is drawn as it comes
 * (flushSync: answers that arrive in one network read would otherwise be batched into one render,
 * and the partial ones never seen). A new input starts over; the last answer stays until the new
 * count's first one. The caller subscribes (tRPC `useSubscription`) with `handlers`.
 */
export function useProgressSteps<A>(input: unknown, enabled: boolean) {
  const key = JSON.stringify(input)
  const [state, setState] = useState<State<A>>({ key, step: undefined, stepKey: null, error: null })
  useEffect(() => setState((s) => ({ ...s, key, error: null })), [key, enabled])
  const handlers = {
    onData: (step: ProgressStep<A>) => flushSync(() => setState((s) => (s.key === key ? { ...s, step, stepKey: key, error: null } : s))),
    onError: (error: { message: string }) => setState((s) => (s.key === key ? { ...s, error: error.message } : s)),
  }
  const current = state.stepKey === key && state.key === key
  const complete = current && state.step?.complete === true
  const error = state.key === key ? state.error : null
  const progress: Progress<A> = {
    answer: state.step?.answer,
    current,
    scanned: current ? (state.step?.scanned ?? 0) : 0,
    complete,
    running: enabled && !complete && error === null,
    error,
  }
  return { progress, handlers }
}
