import { Anchor, Button, Code, Group, Stack, Table, Text } from '@mantine/core'
import { IconRepeat } from '@tabler/icons-react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import type { Column } from '../../components/list-table'
import { JsonView } from '../../components/json-view'
import { QueryState } from '../../components/query-state'
import type { WebhookAttempt, WebhookDelivery, WebhookDeliveryDetail } from '../../lib/api-types'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { ExpandableTable } from '../data/run-history'
import { DeliveryStatusBadge, outcomeText } from './webhook-badges'
import { HeaderTable } from './header-table'

/** How often the log is read again while the tab is open: attempts land in the background. */
export const LIVE_MS = 2000

const finished = (status: WebhookDelivery['status']) => status === 'succeeded' || status === 'failed' || status === 'interrupted'

const parsedOrText = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function Attempt({ a }: { a: WebhookAttempt }) {
  return (
    <Stack gap={4} data-testid={`attempt-${a.number}`}>
      <Group gap="xs">
        <Text size="sm" fw={600}>
          Attempt {a.number}
        </Text>
        <Text size="sm" c={a.succeeded ? 'green' : 'red'} data-testid="attempt-outcome">
          {outcomeText(a.response_status, a.error_kind)}
        </Text>
        <Text size="xs" c="dimmed">
          {formatTimestamp(a.started_at)} · {a.latency_ms} ms{a.address ? ` · ${a.address}` : ''}
          {a.next_retry_at ? ` · next attempt ${formatTimestamp(a.next_retry_at)}` : ''}
        </Text>
      </Group>
      {a.error_message && (
        <Text size="xs" c="red" data-testid="attempt-error">
          {a.error_message}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        Request headers
      </Text>
      <HeaderTable headers={a.request_headers} testId="attempt-request-headers" />
      {a.response_headers && (
        <>
          <Text size="xs" c="dimmed">
            Response headers
          </Text>
          <HeaderTable headers={a.response_headers} testId="attempt-response-headers" />
        </>
      )}
      {a.response_excerpt !== null && (
        <>
          <Text size="xs" c="dimmed">
            Response body{a.response_truncated ? ' (first 4 KiB)' : ''}
          </Text>
          <Code block fz="xs" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="attempt-response-body">
            {a.response_excerpt || '(empty)'}
          </Code>
        </>
      )}
    </Stack>
  )
}

/** One delivery: its signed body, every attempt, and the replay buttons. */
function DeliveryDetails({ id, isAdmin, onReplayed }: { id: string; isAdmin: boolean; onReplayed: (d: WebhookDelivery) => void }) {
  const trpc = useTRPC()
  const queryClient = useQueryClient()
  const detail = useQuery({
    ...trpc.webhooks.delivery.queryOptions({ deliveryId: id }),
    refetchInterval: (q) => (q.state.data && finished(q.state.data.status) ? false : LIVE_MS),
  })
  const replay = useMutation(
    trpc.webhooks.replay.mutationOptions({
      onSuccess: (d) => {
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.queryKey() })
        onReplayed(d)
      },
    }),
  )
  return (
    <QueryState query={detail}>
      {(d: WebhookDeliveryDetail) => (
        <Stack gap="sm" data-testid="delivery-details">
          <Group gap="xs" justify="space-between">
            <Text size="xs" c="dimmed">
              <Code fz="xs">webhook-id: {d.webhook_id}</Code> · {d.source === 'stored' ? 'built from stored data' : 'an example (no stored call fits)'}
              {d.call_id && (
                <>
                  {' · '}
                  <Anchor component={Link} to={`/calls/${encodeURIComponent(d.call_id)}`} size="xs">
                    its call
                  </Anchor>
                </>
              )}
            </Text>
            {isAdmin && (
              <Group gap="xs">
                <Button size="compact-xs" variant="light" leftSection={<IconRepeat size={12} />} loading={replay.isPending} onClick={() => replay.mutate({ deliveryId: d.id, new_id: false })} data-testid="replay">
                  Replay
                </Button>
                <Button size="compact-xs" variant="default" onClick={() => replay.mutate({ deliveryId: d.id, new_id: true })} data-testid="replay-new-id">
                  Replay as a new message
                </Button>
              </Group>
            )}
          </Group>
          {replay.error && <Text size="xs" c="red">{replay.error.message}</Text>}
          {d.attempts.length === 0 && <Text size="sm" c="dimmed">The first attempt is under way…</Text>}
          {d.attempts.map((a) => (
            <Attempt key={a.number} a={a} />
          ))}
          <Text size="xs" c="dimmed">
            Body (the same bytes on every attempt)
          </Text>
          <JsonView value={parsedOrText(d.request_body)} testId="delivery-body" />
        </Stack>
      )}
    </QueryState>
  )
}

const COLUMNS: Column[] = [{ label: 'Sent', w: 200 }, { label: 'Event', w: 160 }, { label: 'Status', w: 130 }, { label: 'Attempts', ta: 'right', w: 90 }, { label: 'Last answer', w: 140 }, { label: 'URL' }]

interface DeliveryLogProps {
  tenantId: string
  isAdmin: boolean
  openId: string | null
  onOpen: (id: string | null) => void
}

/** The tenant's deliveries, newest first, read again every 2 s; a row opens its attempts. */
export function DeliveryLog({ tenantId, isAdmin, openId, onOpen }: DeliveryLogProps) {
  const trpc = useTRPC()
  const list = useQuery({ ...trpc.webhooks.deliveries.queryOptions({ tenantId, limit: 50 }), refetchInterval: LIVE_MS })
  return (
    <QueryState query={list} isEmpty={(l) => l.deliveries.length === 0} empty="No deliveries yet: send a test event above.">
      {(l) => (
        <ExpandableTable
          fz="xs"
          testId="delivery-log"
          columns={COLUMNS}
          rows={l.deliveries}
          rowKey={(d) => d.id}
          rowLabel={(d) => `${d.event_type} sent ${formatTimestamp(d.created_at)}`}
          openKey={openId}
          onToggle={onOpen}
          cells={(d) => (
            <>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(d.created_at)}</Table.Td>
              <Table.Td ff="monospace">{d.event_type}</Table.Td>
              <Table.Td>
                <DeliveryStatusBadge status={d.status} />
              </Table.Td>
              <Table.Td ta="right">
                {d.attempt_count} / {d.max_attempts}
              </Table.Td>
              <Table.Td>{d.attempt_count === 0 ? '…' : outcomeText(d.last_status, d.last_error_kind)}</Table.Td>
              <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
                {d.url}
              </Table.Td>
            </>
          )}
          details={(d) => <DeliveryDetails id={d.id} isAdmin={isAdmin} onReplayed={(r) => onOpen(r.id)} />}
        />
      )}
    </QueryState>
  )
}
