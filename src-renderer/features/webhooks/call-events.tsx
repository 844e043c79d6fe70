import { Anchor, Stack, Table, Text } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { type Column, ListTable } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { LIVE_MS } from './delivery-log'
import { DeliveryStatusBadge, InboxStatusBadge, outcomeText } from './webhook-badges'

const SENT: Column[] = [{ label: 'Sent', w: 200 }, { label: 'Event', w: 160 }, { label: 'Status', w: 130 }, { label: 'Last answer', w: 120 }, { label: 'URL' }]
const RECEIVED: Column[] = [{ label: 'Received', w: 200 }, { label: 'Event', w: 160 }, { label: 'Status', w: 130 }, { label: 'Reason' }]

/**
 * A call's webhook events beside its timeline: test-sends built from it and what the inbox received
 * about it, each linking to the tenant's Webhooks tab where its attempts, headers and body are.
 */
export function CallEvents({ callId, tenantId }: { callId: string; tenantId: string }) {
  const trpc = useTRPC()
  const events = useQuery({ ...trpc.webhooks.callEvents.queryOptions({ callId }), refetchInterval: LIVE_MS })
  const tab = `/tenants/${encodeURIComponent(tenantId)}?tab=webhooks`
  return (
    <QueryState query={events} isEmpty={(e) => e.deliveries.length + e.inbox.length === 0} empty="No webhook events sent or received for this call.">
      {(e) => (
        <Stack gap="sm" data-testid="call-events">
          {e.inbox.length > 0 && (
            <ListTable
              fz="xs"
              testId="call-events-received"
              columns={RECEIVED}
              rows={e.inbox}
              rowKey={(x) => x.id}
              cells={(x) => (
                <>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(x.received_at)}</Table.Td>
                  <Table.Td ff="monospace">{x.event_type ?? '—'}</Table.Td>
                  <Table.Td>
                    <InboxStatusBadge status={x.status} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs" lineClamp={2}>
                      {x.reason ?? ''}
                    </Text>
                  </Table.Td>
                </>
              )}
            />
          )}
          {e.deliveries.length > 0 && (
            <ListTable
              fz="xs"
              testId="call-events-sent"
              columns={SENT}
              rows={e.deliveries}
              rowKey={(d) => d.id}
              cells={(d) => (
                <>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(d.created_at)}</Table.Td>
                  <Table.Td ff="monospace">{d.event_type}</Table.Td>
                  <Table.Td>
                    <DeliveryStatusBadge status={d.status} />
                  </Table.Td>
                  <Table.Td>{outcomeText(d.last_status, d.last_error_kind)}</Table.Td>
                  <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {d.url}
                  </Table.Td>
                </>
              )}
            />
          )}
          <Anchor component={Link} to={tab} size="xs" data-testid="call-events-tenant-link">
            Attempts, headers and bodies in the tenant&apos;s Webhooks tab
          </Anchor>
        </Stack>
      )}
    </QueryState>
  )
}
