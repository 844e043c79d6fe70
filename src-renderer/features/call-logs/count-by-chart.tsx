import { BarChart } from '@mantine/charts'
import { Box, VisuallyHidden } from '@mantine/core'
import { forwardRef, memo, useMemo } from 'react'
import type { CallLogCountBy } from '../../../src-shared/schemas/call-log-count-by'
import { formatNumber } from '../../lib/format'
import { bucketWords, chartRows, type ShownGroup } from './count-by-groups'
import { tickFormat, tooltipLabel } from './volume-histogram'

interface CountByChartProps {
  answer: CallLogCountBy
  groups: ShownGroup[]
  timeZone: string
}

/**
 * Lines per bucket stacked by group, in the palette's colours with a legend. Screen readers get
 * one sentence (the figure's caption); the table below it holds every number (the chart's
 * accessible equivalent).
 */
export const CountByChart = memo(
  forwardRef<HTMLDivElement, CountByChartProps>(function CountByChart({ answer, groups, timeZone }, ref) {
    const data = useMemo(() => chartRows(answer, groups), [answer, groups])
    const series = useMemo(() => groups.map((g) => ({ name: g.key, label: g.label, color: g.color })), [groups])
    const summary = `Stacked bar chart: matching lines per ${bucketWords(answer.bucket_seconds)} by ${answer.by}, ${formatNumber(answer.total)} in all, in ${groups.length} groups. The table below lists each group's counts.`
    return (
      <Box component="figure" m={0} ref={ref} data-testid="count-by-chart">
        <VisuallyHidden component="figcaption">{summary}</VisuallyHidden>
        <BarChart
          h={180}
          data={data}
          dataKey="start"
          type="stacked"
          series={series}
          withLegend
          legendProps={{ verticalAlign: 'top', height: 28 }}
          gridAxis="y"
          tickLine="none"
          xAxisProps={{ tickFormatter: tickFormat(answer.bucket_seconds, answer.buckets.length, timeZone), minTickGap: 24 }}
          yAxisProps={{ width: 48 }}
          valueFormatter={formatNumber}
          tooltipProps={{ labelFormatter: (value: unknown) => tooltipLabel(String(value), timeZone) }}
          barProps={{ isAnimationActive: false }}
          // Mantine's bars are 80% opaque by default; full colour keeps the palette's contrast.
          fillOpacity={1}
        />
      </Box>
    )
  }),
)
