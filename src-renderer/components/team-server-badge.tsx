import { Badge } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { useTRPC } from '../lib/trpc'

/** In the desktop app's header while it reads a team server: whose data this is, at a glance. */
export function TeamServerBadge() {
  const trpc = useTRPC()
  const status = useQuery(trpc.settings.teamServer.queryOptions())
  if (!status.data?.url) return null
  return (
    <Badge component={Link} to="/settings" variant="light" color="teal" style={{ cursor: 'pointer', textTransform: 'none' }} data-testid="team-server-badge">
      Team server · {new URL(status.data.url).host}
    </Badge>
  )
}
