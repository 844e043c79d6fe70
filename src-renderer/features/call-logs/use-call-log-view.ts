import { useCallback, useEffect, useMemo, useRef } from 'react'
import { useSearchParams } from 'react-router'
import { type CallLogViewParams, viewFromSearchParams, viewToSearchParams } from '../../../src-shared/call-log-view'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { LOG_LEVELS, type LogLevel } from '../../../src-shared/constants'
import { wordsToLogQuery } from '../../../src-shared/log-query/legacy'

/**
 * The view lives in the URL: every filter and the selected line (`?line=<id>`), so any view is a
 * link. Updates replace the history entry: typing in the search box must not flood "Back".
 */
export function useCallLogView() {
  const [params, setParams] = useSearchParams()
  const view = useMemo(() => viewFromSearchParams(params), [params])
  const line = params.get('line')
  // Both setters read the current URL through the updater form, so they can stay the same
  // functions for the page's lifetime (memoized children do not re-render for a new setter).
  const setParamsRef = useRef(setParams)
  setParamsRef.current = setParams

  const setView = useCallback((patch: Partial<CallLogViewParams>, options: { keepLine?: boolean } = {}) =>
    setParamsRef.current(
      (prev) => {
        const next = viewToSearchParams({ ...viewFromSearchParams(prev), ...patch }, new URLSearchParams(prev))
        if (!options.keepLine) next.delete('line')
        return next
      },
      { replace: true },
    ), [])
  const setLine = useCallback((id: string | null) =>
    setParamsRef.current(
      (prev) => {
        const next = new URLSearchParams(prev)
        if (id) next.set('line', id)
        else next.delete('line')
        return next
      },
      { replace: true },
    ), [])
  // A link from before the query language (`?q=timeout`): its words move into the query box as
  // quoted phrases, which match the same lines (legacy.ts), so the box shows every text condition.
  useEffect(() => {
    if (view.q && !view.query) setView({ q: undefined, query: wordsToLogQuery(view.q) || undefined }, { keepLine: true })
  }, [view.q, view.query, setView])
  /** The live tail (`?live=1`): a view that follows is a link that follows too. */
  const live = params.get('live') === '1'
  const setLive = useCallback((on: boolean) =>
    setParamsRef.current(
      (prev) => {
        const next = new URLSearchParams(prev)
        if (on) next.set('live', '1')
        else next.delete('live')
        return next
      },
      { replace: true },
    ), [])
  return { view, line, setView, setLine, live, setLive, params }
}

/** The view as the tRPC filter: unknown level names in a hand-edited URL are dropped, not sent. */
export function toFilter(view: CallLogViewParams): CallLogFilterInput {
  const levels = view.levels?.filter((l): l is LogLevel => (LOG_LEVELS as readonly string[]).includes(l))
  return {
    from: view.from,
    to: view.to,
    agentId: view.agentId,
    levels: levels?.length ? levels : undefined,
    types: view.types?.length ? view.types : undefined,
    q: view.q,
    query: view.query,
    callId: view.callId,
    traceId: view.traceId,
    sessionId: view.sessionId,
  }
}
