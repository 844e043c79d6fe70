import { BarChart } from '@mantine/charts'
import { Box, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { keepPreviousData } from '@tanstack/react-query'
import type { CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { LOG_LEVELS } from '../../../src-shared/constants'
import { QueryState } from '../../components/query-state'
import { useTRPC } from '../../lib/trpc'
import { LEVEL_COLORS } from './log-level-badge'

const bucketLabel = (seconds: number) => (seconds >= 86_400 ? `${seconds / 86_400} d` : seconds >= 3600 ? `${seconds / 3600} h` : `${seconds / 60} min`)

const tickFormat = (bucketSeconds: number) => (iso: string) =>
  bucketSeconds >= 86_400 ? iso.slice(5, 10) : bucketSeconds >= 3600 * 3 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16)

/** Log volume per time bucket, stacked by level, for the current filter. */
export function VolumeHistogram({ filter, enabled }: { filter: CallLogFilterInput; enabled: boolean }) {
  const trpc = useTRPC()
  const histogram = useQuery({ ...trpc.callLogs.histogram.queryOptions({ filter }), placeholderData: keepPreviousData, enabled })
  return (
    <Box h={150} data-testid="call-log-histogram">
      <QueryState query={histogram} isEmpty={(h) => h.buckets.length === 0} empty={<Text c="dimmed" size="sm">No volume to chart.</Text>}>
        {(h) => (
          <>
            <Text size="xs" c="dimmed" mb={2}>
              Volume per {bucketLabel(h.bucketSeconds)} (UTC), by level
            </Text>
            <BarChart
              h={130}
              data={h.buckets}
              dataKey="start"
              type="stacked"
              withLegend
              legendProps={{ verticalAlign: 'top', height: 24 }}
              withYAxis
              gridAxis="y"
              tickLine="none"
              xAxisProps={{ tickFormatter: tickFormat(h.bucketSeconds), minTickGap: 24 }}
              tooltipProps={{ labelFormatter: (label: unknown) => `${String(label).replace('T', ' ').slice(0, 16)} UTC` }}
              series={LOG_LEVELS.map((l) => ({ name: l, color: `${LEVEL_COLORS[l]}.6` }))}
              barProps={{ isAnimationActive: false }}
            />
          </>
        )}
      </QueryState>
    </Box>
  )
}
