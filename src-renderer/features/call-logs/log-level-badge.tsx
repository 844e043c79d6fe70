import { Badge } from '@mantine/core'

export const LEVEL_COLORS: Record<string, string> = {
  debug: 'gray',
  info: 'blue',
  warning: 'yellow',
  error: 'red',
  critical: 'grape',
}

export function LogLevelBadge({ level }: { level: string }) {
  return (
    <Badge size="sm" variant={level === 'critical' ? 'filled' : 'light'} color={LEVEL_COLORS[level] ?? 'gray'} w={72}>
      {level}
    </Badge>
  )
}
