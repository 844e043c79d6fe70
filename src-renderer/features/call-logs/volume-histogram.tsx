import { AreaChart } from '@mantine/charts'
import { Box, Text } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { memo, useDeferredValue } from 'react'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { LOG_LEVELS } from '../../../src-shared/constants'
import { QueryState } from '../../components/query-state'
import type { CallLogHistogram } from '../../lib/api-types'
import { useTRPC } from '../../lib/trpc'
import { LEVEL_COLORS } from './log-level-badge'
import { ABORT_WHEN_SUPERSEDED } from './query-options'

const bucketLabel = (seconds: number) => (seconds >= 86_400 ? `${seconds / 86_400} d` : seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`)

const tickFormat = (bucketSeconds: number) => (iso: string) =>
  bucketSeconds >= 86_400 ? iso.slice(5, 10) : bucketSeconds >= 3600 * 3 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16)

const SERIES = LOG_LEVELS.map((l) => ({ name: l, color: `${LEVEL_COLORS[l]}.6` }))

/** Log volume per time bucket, stacked by level, for the current filter. */
export function VolumeHistogram({ filter, enabled }: { filter: CallLogFilterInput; enabled: boolean }) {
  const trpc = useTRPC()
  const histogram = useQuery({ ...trpc.callLogs.histogram.queryOptions({ filter }, ABORT_WHEN_SUPERSEDED), placeholderData: keepPreviousData, enabled })
  // Drawing the chart is the costliest render on the page; deferring it lets the rows of a new
  // filter paint first, and React drops a chart render that a newer filter made stale.
  const data = useDeferredValue(histogram.data)
  return (
    <Box h={150} data-testid="call-log-histogram">
      <QueryState query={histogram} isEmpty={(h) => h.buckets.length === 0} empty={<Text c="dimmed" size="sm">No volume to chart.</Text>}>
        {(h) => <VolumeChart histogram={data ?? h} />}
      </QueryState>
    </Box>
  )
}

/**
 * Stacked step areas: one SVG path per level instead of a rectangle per (bucket, level), which
 * with 120 buckets cost hundreds of ms per render. Memoized on the data: a filter change alone
 * does not redraw it, only the histogram of the new filter does.
 */
const VolumeChart = memo(function VolumeChart({ histogram }: { histogram: CallLogHistogram }) {
  return (
    <>
      <Text size="xs" c="dimmed" mb={2}>
        Volume per {bucketLabel(histogram.bucketSeconds)} (UTC), by level
      </Text>
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
        xAxisProps={{ tickFormatter: tickFormat(histogram.bucketSeconds), minTickGap: 24 }}
        tooltipProps={{ labelFormatter: (label: unknown) => `${String(label).replace('T', ' ').slice(0, 16)} UTC` }}
        series={SERIES}
        areaProps={{ isAnimationActive: false }}
      />
    </>
  )
})
