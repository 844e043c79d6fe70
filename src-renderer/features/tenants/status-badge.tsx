import { Badge } from '@mantine/core'

const COLORS: Record<string, string> = { active: 'green', trial: 'blue', suspended: 'orange', cancelled: 'red' }

export function StatusBadge({ status }: { status: string }) {
  return <Badge color={COLORS[status] ?? 'gray'}>{status}</Badge>
}
