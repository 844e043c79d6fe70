import { AreaChart } from '@mantine/charts'
import { Box, Group, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { memo, useCallback, useDeferredValue, useState } from 'react'
import { ReferenceArea } from 'recharts'
import type { CallLogViewParams } from '../../../src-shared/call-log-view'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { LOG_LEVELS } from '../../../src-shared/constants'
import { QueryState } from '../../components/query-state'
import type { CallLogHistogram } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'
import { formatLogTime, zoneLabel } from './format'
import { LEVEL_COLORS } from './log-level-badge'
import { ABORT_WHEN_SUPERSEDED } from './query-options'
import { useTimeZone } from './time-zone'
import { TimeZoneToggle } from './time-range-fields'
import { ZoomControls } from './zoom-controls'

const bucketLabel = (seconds: number) => (seconds >= 86_400 ? `${seconds / 86_400} d` : seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`)

/**
 * Axis ticks in the chosen zone: days alone when a bucket is a day and starts at midnight there;
 * the date beside the time when the chart spans more than a day (19:00 would be ambiguous).
 */
export const tickFormat = (bucketSeconds: number, buckets: number, timeZone: string) => (iso: string) => {
  const local = formatLogTime(iso, timeZone)
  if (bucketSeconds >= 86_400 && local.slice(11, 16) === '00:00') return local.slice(5, 10)
  return bucketSeconds * buckets > 86_400 ? `${local.slice(5, 10)} ${local.slice(11, 16)}` : local.slice(11, 16)
}

/** The tooltip's bucket start in the zone; recharts also asks with no label (an empty string). */
export const tooltipLabel = (iso: string, timeZone: string) => (Number.isNaN(Date.parse(iso)) ? '' : `${formatLogTime(iso, timeZone).slice(0, 16)} ${zoneLabel(timeZone, Date.parse(iso))}`)

/** Mantine's blue 5: an SVG fill attribute does not resolve CSS variables. */
const SELECTION_COLOR = '#339af0'

const SERIES = LOG_LEVELS.map((l) => ({ name: l, color: `${LEVEL_COLORS[l]}.6` }))

interface VolumeHistogramProps {
  filter: CallLogFilterInput
  enabled: boolean
  view: CallLogViewParams
  setView: (patch: Partial<CallLogViewParams>) => void
}

/** Log volume per time bucket, stacked by level, for the current filter; drag across it to zoom in. */
export function VolumeHistogram({ filter, enabled, view, setView }: VolumeHistogramProps) {
  const trpc = useTRPC()
  const histogram = useQuery({ ...trpc.callLogs.histogram.queryOptions({ filter }, ABORT_WHEN_SUPERSEDED), placeholderData: keepPreviousData, enabled })
  // Drawing the chart is the costliest render on the page; deferring it lets the rows of a new
  // filter paint first, and React drops a chart render that a newer filter made stale.
  const data = useDeferredValue(histogram.data)
  const { timeZone } = useTimeZone()
  const zoomTo = useCallback((from: string, to: string) => setView({ from, to }), [setView])
  return (
    <Box data-testid="call-log-histogram">
      <Group justify="space-between" gap="xs" mb={2} wrap="nowrap">
        <Text size="xs" c="dimmed" data-testid="histogram-caption">
          {histogram.data ? `Volume per ${bucketLabel(histogram.data.bucketSeconds)} (${zoneLabel(timeZone)}), by level · drag across it to zoom in` : 'Volume by level'}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <ZoomControls view={view} setView={setView} shown={histogram.data} />
          <TimeZoneToggle />
        </Group>
      </Group>
      <Box h={130}>
        <QueryState query={histogram} isEmpty={(h) => h.buckets.length === 0} empty={<Text c="dimmed" size="sm">No volume to chart.</Text>}>
          {(h) => <VolumeChart histogram={data ?? h} timeZone={timeZone} onZoom={zoomTo} />}
        </QueryState>
      </Box>
    </Box>
  )
}

/**
 * Stacked step areas: one SVG path per level instead of a rectangle per (bucket, level), which
 * with 120 buckets cost hundreds of ms per render. Memoized on the data and zone: a filter change
 * alone does not redraw it, only the histogram of the new filter does. A drag (mouse down, move,
 * up) across buckets selects them; the selection is shaded while dragging and becomes from/to.
 */
const VolumeChart = memo(function VolumeChart({ histogram, timeZone, onZoom }: { histogram: CallLogHistogram; timeZone: string; onZoom: (from: string, to: string) => void }) {
  const [drag, setDrag] = useState<{ start: string; end: string } | null>(null)
  const selecting = drag !== null && drag.start !== drag.end
  const label = (state: { activeLabel?: string | number }) => (state.activeLabel === undefined ? null : String(state.activeLabel))
  const finish = () => {
    setDrag(null)
    // A click alone is not a zoom: the tooltip already tells that bucket's counts.
    if (!drag || drag.start === drag.end) return
    const [first, last] = [drag.start, drag.end].sort()
    onZoom(first!, new Date(Date.parse(last!) + histogram.bucketSeconds * 1000 - 1).toISOString())
  }
  return (
    <AreaChart
      h={130}
      data={histogram.buckets}
      dataKey="start"
      type="stacked"
      curveType="stepAfter"
      withDots={false}
      withGradient={false}
      fillOpacity={0.85}
      strokeWidth={1}
      withLegend
      legendProps={{ verticalAlign: 'top', height: 24 }}
      withYAxis
      gridAxis="y"
      tickLine="none"
      xAxisProps={{ tickFormatter: tickFormat(histogram.bucketSeconds, histogram.buckets.length, timeZone), minTickGap: 24 }}
      // No tooltip over the selection while dragging: it would hide what is being selected.
      tooltipProps={{ labelFormatter: (value: unknown) => tooltipLabel(String(value), timeZone), ...(selecting ? { active: false } : {}) }}
      series={SERIES}
      areaProps={{ isAnimationActive: false }}
      style={{ cursor: 'crosshair', userSelect: 'none' }}
      areaChartProps={{
        onMouseDown: (state) => {
          const at = label(state)
          if (at) setDrag({ start: at, end: at })
        },
        onMouseMove: (state) => {
          const at = label(state)
          if (drag && at && at !== drag.end) setDrag({ ...drag, end: at })
        },
        onMouseUp: finish,
        onMouseLeave: () => setDrag(null),
      }}
    >
      {drag && selecting && (
        <ReferenceArea x1={drag.start < drag.end ? drag.start : drag.end} x2={drag.start < drag.end ? drag.end : drag.start} fill={SELECTION_COLOR} fillOpacity={0.3} stroke={SELECTION_COLOR} strokeOpacity={0.8} data-testid="histogram-selection" />
      )}
    </AreaChart>
  )
})
