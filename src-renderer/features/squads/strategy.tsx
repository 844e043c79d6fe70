import { Badge } from '@mantine/core'

export const strategyLabel = (strategy: string | null) => (strategy ? strategy.replaceAll('_', ' ') : 'unrecorded')

export function StrategyBadge({ strategy, current }: { strategy: string | null; current?: boolean }) {
  return (
    <Badge color={current === false ? 'gray' : 'indigo'} variant="light" tt="none">
      {strategyLabel(strategy)}
    </Badge>
  )
}
