import { Group, Stack, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { LIVE_MS } from './delivery-log'
import { DeliveryStatusBadge, InboxStatusBadge } from './webhook-badges'

/** How many of each list the drawer shows; the call's page has them all. */
const SHOWN = 5

/**
 * The webhook events of a log line's call in the explorer's line drawer, read again while it is
 * open: what the inbox received about the call and what was sent for it, newest first, each with
 * its status. Nothing when the call has none; the call's page has the whole list and the details.
 */
export function LineCallEvents({ callId }: { callId: string }) {
  const trpc = useTRPC()
  const events = useQuery({ ...trpc.webhooks.callEvents.queryOptions({ callId }), refetchInterval: LIVE_MS })
  const e = events.data
  if (!e || e.inbox.length + e.deliveries.length === 0) return null
  return (
    <Stack gap={4} data-testid="line-call-events">
      <Text size="sm" fw={600}>
        Webhook events of its call
      </Text>
      {e.inbox.slice(0, SHOWN).map((x) => (
        <Group key={x.id} gap="xs" wrap="nowrap" data-testid="line-call-event">
          <InboxStatusBadge status={x.status} />
          <Text size="xs" ff="monospace">
            {x.event_type ?? '—'}
          </Text>
          <Text size="xs" c="dimmed">
            received {formatTimestamp(x.received_at)}
          </Text>
        </Group>
      ))}
      {e.deliveries.slice(0, SHOWN).map((d) => (
        <Group key={d.id} gap="xs" wrap="nowrap" data-testid="line-call-event">
          <DeliveryStatusBadge status={d.status} />
          <Text size="xs" ff="monospace">
            {d.event_type}
          </Text>
          <Text size="xs" c="dimmed">
            sent {formatTimestamp(d.created_at)}
          </Text>
        </Group>
      ))}
      {(e.inbox.length > SHOWN || e.deliveries.length > SHOWN) && (
        <Text size="xs" c="dimmed">
          {`${e.inbox.length} received and ${e.deliveries.length} sent in all: the call page lists every one.`}
        </Text>
      )}
    </Stack>
  )
}
