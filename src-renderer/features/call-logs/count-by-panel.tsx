import { Alert, Badge, Button, Group, Loader, Paper, Select, SimpleGrid, Stack, Text } from '@mantine/core'
import { IconDownload, IconX } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import { withFacetTerm } from '../../../src-shared/log-query/facet-terms'
import { COUNT_BY_FIELDS, COUNT_BY_TOP, isCountByKey } from '../../../src-shared/schemas/call-log-count-by'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { useUrlParam } from '../../lib/url-param'
import { CountByChart } from './count-by-chart'
import { bucketWords, countByCsv, countByFileName, type ShownGroup, shownGroups, spanWords } from './count-by-groups'
import { chartPng, saveBlob } from './count-by-png'
import { CountByTable } from './count-by-table'
import { zoneLabel } from './format'
import { ABORT_WHEN_SUPERSEDED } from './query-options'
import { useTimeZone } from './time-zone'
import { useCountByProgress } from './use-count-by-progress'

interface CountByPanelProps {
  filter: CallLogFilterInput
  /** Counting waits for the rows of the filter (call-logs-page.tsx). */
  enabled: boolean
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
}

const TOPS = [3, 5, 10].map((n) => ({ value: String(n), label: `Top ${n}` }))

/** Whole seconds since `running` turned true, for "Counting… 3 s"; 0 when not running. */
function useElapsed(running: boolean): number {
  const [seconds, setSeconds] = useState(0)
  useEffect(() => {
    setSeconds(0)
    if (!running) return
    const start = Date.now()
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - start) / 1000)), 500)
    return () => clearInterval(timer)
  }, [running])
  return seconds
}

/**
 * Count by (issue 17 pt 4): the view's lines by the key picked (CountByPicker) over time, as a
 * stacked chart and a top-N table, downloadable as CSV and PNG. `?by=` and `?top=` keep it in the
 * URL. Nothing is shown until a key is picked.
 */
/** `?by=` and `?top=`: the key counted by (null when none or not one) and N. */
function useCountByParams() {
  const [byParam, setBy] = useUrlParam('by')
  const [topParam, setTop] = useUrlParam('top')
  const by = isCountByKey(byParam) ? byParam : null
  const topNumber = Number(topParam)
  const top = Number.isInteger(topNumber) && topNumber >= COUNT_BY_TOP.min && topNumber <= COUNT_BY_TOP.max ? topNumber : COUNT_BY_TOP.default
  return { by, setBy, top, setTop }
}

/**
 * The "Count by" control: a field or one of the details keys of the newest matching lines (the
 * facets' key list). It sits in the page's header row, so the explorer loses no height to it
 * until a count is shown.
 */
export function CountByPicker({ filter, enabled }: { filter: CallLogFilterInput; enabled: boolean }) {
  const trpc = useTRPC()
  const { by, setBy } = useCountByParams()
  const keys = useQuery({ ...trpc.callLogs.detailsKeys.queryOptions({ filter }, ABORT_WHEN_SUPERSEDED), placeholderData: keepPreviousData, enabled })
  const options = useMemo(() => {
    const details = (keys.data?.keys ?? []).map((k) => `details.${k.key}`)
    if (by?.startsWith('details.') && !details.includes(by)) details.unshift(by)
    return [
      { group: 'Fields', items: COUNT_BY_FIELDS.map((f) => ({ value: f, label: f })) },
      { group: 'Details keys (newest lines)', items: details.map((d) => ({ value: d, label: d })) },
    ]
  }, [keys.data, by])
  return (
    <Select
      size="xs"
      w={210}
      aria-label="Count by"
      placeholder="Count by…"
      searchable
      clearable
      data={options}
      value={by}
      onChange={(value) => setBy(value)}
      nothingFoundMessage="No such field or key in the newest matching lines"
      // The fields and the first keys fit without scrolling (a scrolled listbox has no keyboard
      // access of its own for axe); typing finds the others.
      limit={12}
      maxDropdownHeight={560}
      data-testid="count-by-key"
    />
  )
}

export function CountByPanel({ filter, enabled, view, setView }: CountByPanelProps) {
  const { by, setBy, top, setTop } = useCountByParams()
  const count = useCountByProgress({ filter, by: by ?? 'level', top }, enabled && by !== null)
  const elapsed = useElapsed(count.running)
  const { timeZone } = useTimeZone()
  const chart = useRef<HTMLDivElement>(null)
  const [saveError, setSaveError] = useState<string | null>(null)

  // The answer of another key (kept while the new one counts) is not shown under this key's name.
  const answer = count.answer && count.answer.by === by ? count.answer : undefined
  // This count's own answer, over the newest part of the range so far.
  const partial = count.current && !count.complete && answer !== undefined
  const percent = Math.floor(count.scanned * 100)
  const groups = useMemo(() => (answer ? shownGroups(answer) : []), [answer])
  const pick = (g: ShownGroup) => g.term && setView({ query: withFacetTerm(view.query, g.term, 'in') || undefined })
  const title = answer ? `Call logs by ${answer.by}, per ${bucketWords(answer.bucket_seconds)} (${spanWords(answer, timeZone)} ${zoneLabel(timeZone)})` : ''
  const savePng = () => {
    setSaveError(null)
    if (!answer || !chart.current) return
    chartPng(chart.current, title, groups)
      .then((png) => saveBlob(png, countByFileName(answer, 'png')))
      .catch((e: unknown) => setSaveError(e instanceof Error ? e.message : String(e)))
  }
  const saveCsv = () => answer && saveBlob(new Blob([countByCsv(answer, groups)], { type: 'text/csv;charset=utf-8' }), countByFileName(answer, 'csv'))

  if (!by) return null
  return (
    <Stack gap={4} data-testid="count-by-panel">
      {/* Wraps in the column beside the facets rather than cutting its buttons short. */}
      <Group gap="xs" wrap="wrap">
        <Text size="xs" fw={600} style={{ whiteSpace: 'nowrap' }}>{`Count by ${by}`}</Text>
        <Select size="xs" w={96} aria-label="Groups shown" data={TOPS} value={String(top)} onChange={(value) => setTop(value === String(COUNT_BY_TOP.default) ? null : value)} allowDeselect={false} data-testid="count-by-top" />
        <Button size="compact-xs" variant="default" leftSection={<IconDownload size={12} />} disabled={!answer || !count.complete} onClick={saveCsv} data-testid="count-by-csv" style={{ flexShrink: 0 }}>
          Download CSV
        </Button>
        <Button size="compact-xs" variant="default" leftSection={<IconDownload size={12} />} disabled={!answer || !count.complete || answer.total === 0} onClick={savePng} data-testid="count-by-png" style={{ flexShrink: 0 }}>
          Download PNG
        </Button>
        <Button size="compact-xs" variant="subtle" color="gray" leftSection={<IconX size={12} />} onClick={() => setBy(null)} style={{ flexShrink: 0 }}>
          Close count
        </Button>
        {partial && (
          <Badge size="sm" variant="light" color="yellow" data-testid="count-by-partial" style={{ flexShrink: 0 }}>
            {`Partial, ${percent}% scanned`}
          </Badge>
        )}
        <Text size="xs" c="dimmed" role="status" data-testid="count-by-status">
          {count.running && partial ? (
            <>
              <Loader size={10} mr={4} />
              {`Counting by ${by}: the newest ${percent}% of the range counted, ${formatNumber(answer.total)} lines so far…`}
            </>
          ) : count.running ? (
            <>
              <Loader size={10} mr={4} />
              {`Counting by ${by}…${elapsed >= 1 ? ` ${elapsed} s` : ''}`}
            </>
          ) : partial ? (
            `Counted the newest ${percent}% of the range (${formatNumber(answer.total)} lines) before the count stopped`
          ) : answer ? (
            `${formatNumber(answer.total)} lines per ${bucketWords(answer.bucket_seconds)} (${zoneLabel(timeZone)}), top ${answer.top} groups by lines`
          ) : (
            ''
          )}
        </Text>
      </Group>
      {count.error && (
        <Alert color="red" p={6} data-testid="count-by-error" title={partial ? 'Not counted to the end' : 'Not counted'}>
          <Text size="xs">{count.error}</Text>
        </Alert>
      )}
      {saveError && (
        <Text size="xs" c="red" data-testid="count-by-save-error">
          {saveError} Try again, or use Download CSV.
        </Text>
      )}
      {answer && answer.total === 0 && (
        <Text size="xs" c="dimmed">
          No line matches this filter: nothing to count.
        </Text>
      )}
      {answer && answer.total > 0 && (
        // The last count's answer is dimmed until this one's first comes; this one's partial answers are not.
        <Paper withBorder p={6} radius="sm" style={{ opacity: count.running && !count.current ? 0.6 : 1 }}>
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="sm">
            <CountByChart ref={chart} answer={answer} groups={groups} timeZone={timeZone} />
            <CountByTable answer={answer} groups={groups} onPick={pick} />
          </SimpleGrid>
        </Paper>
      )}
    </Stack>
  )
}
