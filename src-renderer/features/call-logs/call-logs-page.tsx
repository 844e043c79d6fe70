import { Group, Stack, Text, Title } from '@mantine/core'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useState } from 'react'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { QueryState } from '../../components/query-state'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { CallLogDetails } from './call-log-details'
import { callLogRowsOptions } from './call-log-rows-query'
import { CallLogFilters } from './call-log-filters'
import { CallLogTable } from './call-log-table'
import { CountByPanel, CountByPicker } from './count-by-panel'
import { ExportButtons } from './export-buttons'
import { FacetPanel } from './facet-panel'
import { parseLogQuery } from '../../../src-shared/log-query/parser'
import { PivotChips } from './pivot-chips'
import { useFacetsProgress } from './use-facets-progress'
import { toFilter, useCallLogView } from './use-call-log-view'
import { VolumeHistogram } from './volume-histogram'
import './call-logs-page.css'
import { LiveSwitch, NewLinesBar } from './live-controls'
import { useLiveTail } from './use-live-tail'
import { columnsOf } from '../../../src-shared/explorer-state'
import { LinkNotice } from './link-notice'
import { useRecordSettledQuery } from './query-history'
import { LinkTimeZone } from './time-zone'
import { ViewControls } from './view-controls'


const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))

/** A control with keys of its own (a button, a link, a tab…): Enter and the arrows are its, not the list's. */
const isControl = (target: EventTarget | null) =>
  target instanceof HTMLElement && target.closest('button, a[href], [role=button], [role=tab], [role=option], [role=radio], [role=checkbox], [role=switch]') !== null

export function CallLogsPage() {
  const trpc = useTRPC()
  const { view, state, line, setView, setState, setLine, openState, live, setLive, ignored, dismissIgnored } = useCallLogView()
  const filter = useMemo(() => toFilter(view), [view])
  // A hand-edited link may hold a query that does not parse: the box says where; nothing is asked of the server.
  const queryOk = useMemo(() => !view.query || parseLogQuery(view.query).ok, [view.query])
  useRecordSettledQuery(view.query, queryOk)
  // Same columns, same array: the memoized table does not redraw for another filter's URL change.
  const colsKey = state.cols?.join(',')
  const columns = useMemo(() => columnsOf({ cols: colsKey?.split(',') }), [colsKey])
  const linkZone = useMemo(() => ({ zone: state.tz, setZone: (tz: string) => setState({ tz }) }), [state.tz, setState])
  const agents = useQuery(trpc.agents.list.queryOptions())
  const tenants = useQuery({ ...trpc.tenants.list.queryOptions(), enabled: columns.includes('tenant') })
  const tenantNames = useMemo(() => new Map((tenants.data ?? []).map((t) => [t.id, t.name])), [tenants.data])
  const logs = useInfiniteQuery({ ...callLogRowsOptions(trpc, filter), placeholderData: keepPreviousData, enabled: queryOk })
  // Rows first: the service answers one query at a time, and facets and the histogram over a
  // million lines take hundreds of ms. They start once the rows of this filter are in.
  const rowsReady = logs.isSuccess && !logs.isPlaceholderData
  // As they go: a filter whose lines are read is counted newest first, each answer drawn marked partial.
  const facets = useFacetsProgress(filter, rowsReady)
  const tail = useLiveTail(filter, live && queryOk)
  // Live lines on top of the stored ones (a line may be in both once the rows are fetched again).
  const rows = useMemo(() => {
    const stored = logs.data?.pages.flatMap((p) => p.rows) ?? []
    if (tail.shown.length === 0) return stored
    const live = new Set(tail.shown.map((r) => r.id))
    return [...tail.shown, ...stored.filter((r) => !live.has(r.id))]
  }, [logs.data, tail.shown])
  // Once the tail follows, the stored rows are read again: a line stored between the first read and
  // the tail's start would otherwise be in neither (one in both shows once).
  const following = live && tail.status === 'pending'
  const { refetch } = logs
  useEffect(() => {
    if (following) void refetch()
  }, [following, refetch])
  const [toTop, setToTop] = useState(0)
  const resumeLive = useCallback(() => {
    tail.resume()
    setToTop((n) => n + 1)
  }, [tail.resume])
  const { pause } = tail
  const onTopChange = useCallback((atTop: boolean) => {
    if (!atTop && live) pause()
  }, [live, pause])
  // A pulled agent has no name (the backend has no profile operation): it goes by its id.
  const agentOptions = useMemo(() => (agents.data ?? []).map((a) => ({ id: a.id, name: a.name ?? a.id })), [agents.data])
  const agentNames = useMemo(() => new Map(agentOptions.map((a) => [a.id, a.name])), [agentOptions])
  // The selection is a line, not a position: live lines arriving above it do not move it.
  const [selectedId, setSelectedId] = useState<string | null>(null)
  const selected = useMemo(() => (selectedId === null ? -1 : rows.findIndex((r) => r.id === selectedId)), [rows, selectedId])
  const setSelected = useCallback((index: number) => setSelectedId(rows[index]?.id ?? null), [rows])

  // A new filter is a new list: the old selection means nothing in it.
  useEffect(() => setSelectedId(null), [filter])
  // The open line (also from a deep link) is the selected row once it is loaded.
  useEffect(() => {
    if (!line) return
    if (rows.some((r) => r.id === line)) setSelectedId(line)
  }, [line, rows])

  const move = useCallback(
    (delta: number) => {
      if (rows.length === 0) return
      const next = Math.max(0, Math.min(rows.length - 1, selected < 0 ? 0 : selected + delta))
      setSelected(next)
      if (line) setLine(rows[next]!.id)
    },
    [rows, selected, line, setLine, setSelected],
  )

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target)) return
      if (e.key === 'Escape' && line) setLine(null)
      else if (isControl(e.target)) return
      else if (e.key === 'j' || e.key === 'ArrowDown') move(1)
      else if (e.key === 'k' || e.key === 'ArrowUp') move(-1)
      else if (e.key === 'Enter' && selected >= 0 && rows[selected]) setLine(rows[selected].id)
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [move, selected, rows, line, setLine])

  const total = facets.answer
    ? facets.answer.levels.filter((l) => !filter.levels || filter.levels.includes(l.value as never)).reduce((n, l) => n + l.count, 0)
    : null
  // A partial answer's total is of the newest part of the range only (the facets' badge says how much): said so.
  const facetsPartial = facets.current && !facets.complete && facets.answer !== undefined
  const matching = total === null ? '' : facetsPartial ? `${formatNumber(total)} matching so far` : `${formatNumber(total)} matching`
  const pivot = (patch: Partial<CallLogViewParams>) => setView(patch, { keepLine: true })
  const openRow = useCallback((index: number) => setLine(rows[index]?.id ?? null), [rows, setLine])
  const { fetchNextPage } = logs
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage])

  return (
    <LinkTimeZone.Provider value={linkZone}>
    <Stack gap="sm" h="calc(100dvh - 44px - 2 * var(--mantine-spacing-md))" data-testid="call-logs-page">
      <Group justify="space-between">
        <Group gap="sm" align="baseline">
          <Title order={3}>Call logs</Title>
          <Text size="sm" c="dimmed" data-testid="call-log-count">
            {total === null || !queryOk ? '' : `${matching} · ${formatNumber(rows.length)} loaded${tail.shown.length > 0 ? ` · ${formatNumber(tail.shown.length)} new since Live` : ''}`}
          </Text>
        </Group>
        <Group gap="md">
          <CountByPicker filter={filter} enabled={rowsReady} />
          <LiveSwitch live={live} tail={tail} onChange={setLive} />
          <ViewControls state={state} filter={filter} setState={setState} openState={openState} />
          <ExportButtons view={view} />
        </Group>
      </Group>
      <LinkNotice ignored={ignored} onClose={dismissIgnored} />
      <CallLogFilters view={view} setView={setView} agents={agentOptions} facets={queryOk ? facets.answer : undefined} partial={facetsPartial} />
      <PivotChips view={view} setView={setView} />
      {/* Facets beside the lines, not above them: on a laptop's short screen they would push the table out of view. */}
      <div className="call-logs-body">
        <aside className={`call-logs-facets${queryOk ? '' : ' call-logs-stale'}`} aria-label="Facets" inert={!queryOk} data-testid="facets-aside">
          <FacetPanel view={view} setView={setView} facets={facets.answer} filter={filter} enabled={rowsReady} counting={facets.running} partial={facetsPartial} scanned={facets.scanned} error={facets.error ?? undefined} detailsKey={state.facet} setDetailsKey={(facet) => setState({ facet })} />
        </aside>
        <Stack gap="sm" className="call-logs-main">
          {/* A query that does not parse was not run: what these show is the last query's, dimmed and out of reach. */}
          <div className={queryOk ? undefined : 'call-logs-stale'} inert={!queryOk} data-testid="charts">
            <Stack gap="sm">
              <VolumeHistogram filter={filter} enabled={rowsReady} view={view} setView={setView} />
              <CountByPanel filter={filter} enabled={rowsReady} view={view} setView={setView} />
            </Stack>
          </div>
          <NewLinesBar tail={tail} onResume={resumeLive} />
          {!queryOk && <Text c="dimmed" data-testid="query-invalid">Correct the query above to see its log lines; the counts and chart, dimmed, are of the last query that ran.</Text>}
          {queryOk && <QueryState query={logs} isEmpty={() => rows.length === 0} empty={<Text c="dimmed">No log line matches this filter.</Text>}>
            {() => (
              <CallLogTable
                rows={rows}
                agentNames={agentNames}
                tenantNames={tenantNames}
                columns={columns}
                selectedIndex={selected}
                onSelect={setSelected}
                onOpen={openRow}
                hasMore={logs.hasNextPage}
                loadingMore={logs.isFetchingNextPage}
                loadMore={loadMore}
                onTopChange={onTopChange}
                toTop={toTop}
              />
            )}
          </QueryState>}
        </Stack>
      </div>
      <CallLogDetails id={line} onClose={() => setLine(null)} onPick={(id) => setLine(id)} setView={pivot} />
    </Stack>
    </LinkTimeZone.Provider>
  )
}
