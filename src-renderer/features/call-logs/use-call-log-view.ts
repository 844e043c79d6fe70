import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { type CallLogViewParams, viewFromSearchParams, viewToSearchParams } from '../../../src-shared/call-log-view'
import { type ExplorerState, explorerStateToParams, type IgnoredPart, parseExplorerParams, viewOfState } from '../../../src-shared/explorer-state'
import { wordsToLogQuery } from '../../../src-shared/log-query/legacy'

export { toFilter } from './to-filter'

/**
 * URL parameters of other parts of the page that keep their own state in the link: the explorer's
 * parser leaves them alone instead of reporting them as unknown (src-shared/explorer-state.ts).
 * None today: count by's `by` and `top` are part of the explorer's state (a saved view keeps them).
 */
export const PAGE_PARAMS: readonly string[] = []

/**
 * The view lives in the URL: every filter, the columns, the facet key, the zone and the selected
 * line (`?line=<id>`), so any view is a link (src-shared/explorer-state.ts reads it through its
 * zod schemas). Updates replace the history entry: typing in the search box must not flood "Back".
 */
export function useCallLogView() {
  const [params, setParams] = useSearchParams()
  const parsed = useMemo(() => parseExplorerParams(params, PAGE_PARAMS), [params])
  const { state } = parsed
  // The same filter, the same object: a change of columns, zone or open line is not a new filter
  // (the page clears its selection and memoized parts redraw on a new one).
  const viewKey = JSON.stringify(viewOfState(state))
  const view = useMemo(() => JSON.parse(viewKey) as CallLogViewParams, [viewKey])
  const line = state.line ?? null
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
  /** Fields of the state other than the filter (columns, facet key, zone, line, live), as they are written in a link. */
  const setState = useCallback((patch: Partial<ExplorerState>) =>
    setParamsRef.current(
      (prev) => {
        const next = new URLSearchParams(prev)
        const written = explorerStateToParams(patch as ExplorerState)
        for (const key of Object.keys(patch)) {
          const value = written.get(key)
          if (value === null) next.delete(key)
          else next.set(key, value)
        }
        return next
      },
      { replace: true },
    ), [])
  const setLine = useCallback((id: string | null) => setState({ line: id ?? undefined }), [setState])
  /** Opens another whole state (a saved view): a new entry in the history, so Back returns here. */
  const openState = useCallback((next: ExplorerState) => setParamsRef.current(explorerStateToParams(next)), [])

  // What a link held that the explorer cannot read is left out of the address and said once
  // (LinkNotice), until dismissed: the rest of the link opens as it was meant.
  const [ignored, setIgnored] = useState<IgnoredPart[]>([])
  useEffect(() => {
    if (parsed.ignored.length === 0) return
    setIgnored(parsed.ignored)
    setParamsRef.current(
      (prev) => {
        const next = explorerStateToParams(parseExplorerParams(prev, PAGE_PARAMS).state)
        for (const name of PAGE_PARAMS) for (const value of prev.getAll(name)) next.append(name, value)
        return next
      },
      { replace: true },
    )
  }, [parsed])
  const dismissIgnored = useCallback(() => setIgnored([]), [])

  // A link from before the query language (`?q=timeout`): its words move into the query box as
  // quoted phrases, which match the same lines (legacy.ts), so the box shows every text condition.
  useEffect(() => {
    if (view.q && !view.query) setView({ q: undefined, query: wordsToLogQuery(view.q) || undefined }, { keepLine: true })
  }, [view.q, view.query, setView])
  /** The live tail (`?live=1`): a view that follows is a link that follows too. */
  const live = state.live === true
  const setLive = useCallback((on: boolean) => setState({ live: on || undefined }), [setState])
  return { view, state, line, setView, setState, setLine, openState, live, setLive, params, ignored, dismissIgnored }
}
