import { ActionIcon, Anchor, Code, CopyButton, Group, Stack, Table, Text, Tooltip } from '@mantine/core'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link } from 'react-router'
import type { Column } from '../../components/list-table'
import { JsonView } from '../../components/json-view'
import { QueryState } from '../../components/query-state'
import type { WebhookInboxEvent } from '../../lib/api-types'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { ExpandableTable } from '../data/run-history'
import { LIVE_MS } from './delivery-log'
import { InboxStatusBadge } from './webhook-badges'
import { HeaderTable } from './header-table'

const parsedOrText = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Where a backend sends to: this listener's address (a tunnel in front of it, for a remote backend). */
function InboxAddress({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC()
  // In a browser the console is served by the listener itself; the desktop app asks where it listens.
  const served = window.location.protocol.startsWith('http')
  const info = useQuery({ ...trpc.settings.info.queryOptions(), enabled: !served })
  const base = served ? window.location.origin : (info.data?.runtime.listenerUrl ?? null)
  if (!base) {
    return (
      <Text size="xs" c="dimmed" data-testid="inbox-address">
        Turn on the HTTP listener in Settings to receive events: the inbox is <Code fz="xs">POST /webhooks/inbox/{tenantId}</Code> on it.
      </Text>
    )
  }
  const address = `${base}/webhooks/inbox/${tenantId}`
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="xs" c="dimmed">
        Point the backend (through a tunnel to this machine) at
      </Text>
      <Code fz="xs" data-testid="inbox-address">
        {address}
      </Code>
      <CopyButton value={address}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy'}>
            <ActionIcon variant="subtle" size="sm" onClick={copy} aria-label="Copy the inbox address">
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  )
}

function InboxDetails({ e }: { e: WebhookInboxEvent }) {
  return (
    <Stack gap="xs" data-testid="inbox-details">
      {e.reason && (
        <Text size="xs" c="red" data-testid="inbox-reason">
          {e.reason}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {e.signed_at ? `Signed ${formatTimestamp(e.signed_at)} · ` : ''}received {formatTimestamp(e.received_at)}
        {e.remote_address ? ` from ${e.remote_address}` : ''}
      </Text>
      <HeaderTable headers={e.headers} testId="inbox-headers" />
      <Text size="xs" c="dimmed">
        Body{e.body_truncated ? ' (cut)' : ''}
      </Text>
      <JsonView value={parsedOrText(e.body)} testId="inbox-body" />
    </Stack>
  )
}

const COLUMNS: Column[] = [{ label: 'Received', w: 200 }, { label: 'Status', w: 130 }, { label: 'Event', w: 160 }, { label: 'Call', w: 100 }, { label: 'Reason' }]

/** What the tenant's inbox received, newest first, read again every 2 s. */
export function WebhookInbox({ tenantId }: { tenantId: string }) {
  const trpc = useTRPC()
  const list = useQuery({ ...trpc.webhooks.inbox.queryOptions({ tenantId, limit: 50 }), refetchInterval: LIVE_MS })
  const [open, setOpen] = useState<string | null>(null)
  return (
    <Stack gap="xs">
      <InboxAddress tenantId={tenantId} />
      <QueryState query={list} isEmpty={(l) => l.events.length === 0} empty="Nothing received yet.">
        {(l) => (
          <ExpandableTable
            fz="xs"
            testId="webhook-inbox"
            columns={COLUMNS}
            rows={l.events}
            rowKey={(e) => e.id}
            rowLabel={(e) => `${e.event_type ?? 'request'} received ${formatTimestamp(e.received_at)}`}
            openKey={open}
            onToggle={setOpen}
            cells={(e) => (
              <>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTimestamp(e.received_at)}</Table.Td>
                <Table.Td>
                  <InboxStatusBadge status={e.status} />
                </Table.Td>
                <Table.Td ff="monospace">{e.event_type ?? '—'}</Table.Td>
                <Table.Td>
                  {e.call_id ? (
                    <Anchor component={Link} to={`/calls/${encodeURIComponent(e.call_id)}`} size="xs" ff="monospace" onClick={(ev) => ev.stopPropagation()}>
                      {e.call_id.slice(0, 8)}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td style={{ maxWidth: 0 }}>
                  <Text size="xs" truncate="end" title={e.reason ?? undefined}>
                    {e.reason ?? ''}
                  </Text>
                </Table.Td>
              </>
            )}
            details={(e) => <InboxDetails e={e} />}
          />
        )}
      </QueryState>
    </Stack>
  )
}
