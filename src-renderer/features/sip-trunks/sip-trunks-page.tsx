import { Alert, Badge, Code, Group, Stack, Table, Text, Title, Tooltip } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useQuery } from '@tanstack/react-query'
import type { SipTrunk, SipTrunkSource } from '../../../src-shared/schemas/sip-trunk'
import { type Column, ListTable } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import { NameIdCell } from '../../components/table-cells'
import { formatTimestamp } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'

const SOURCE: Record<SipTrunkSource, { color: string; label: string; hint: string }> = {
  livekit: { color: 'green', label: 'live from LiveKit', hint: 'Listed live from the LiveKit server' },
  store: { color: 'blue', label: 'stored copy', hint: 'LiveKit is not configured: the stored copy is shown' },
  store_fallback: { color: 'orange', label: 'stored copy (fallback)', hint: 'LiveKit could not be used: the stored copy is shown' },
  pulled: { color: 'grape', label: 'pulled', hint: 'This store has no trunks of its own: the list a pull fetched from another backend is shown, as of its fetch time' },
}

const COLUMNS: Column[] = [
  { label: 'Trunk' },
  { label: 'Numbers' },
  { label: 'Allowed addresses' },
  { label: 'Allowed caller numbers' },
  { label: 'Authentication' },
  { label: 'Krisp' },
]

function List({ items, empty, testId }: { items: string[]; empty: string; testId?: string }) {
  if (items.length === 0) {
    return (
      <Text size="xs" c="dimmed" fs="italic" data-testid={testId}>
        {empty}
      </Text>
    )
  }
  return (
    <Stack gap={0} data-testid={testId}>
      {items.slice(0, 4).map((item) => (
        <Text key={item} size="xs" ff="monospace">
          {item}
        </Text>
      ))}
      {items.length > 4 && (
        <Tooltip label={items.slice(4).join(', ')} multiline maw={320}>
          <Text size="xs" c="dimmed">
            +{items.length - 4} more
          </Text>
        </Tooltip>
      )}
    </Stack>
  )
}

function Authentication({ auth }: { auth: SipTrunk['authentication'] }) {
  if (!auth.required) {
    return (
      <Badge color="gray" variant="outline">
        none
      </Badge>
    )
  }
  return (
    <Stack gap={2}>
      <Badge color="teal">required</Badge>
      <Text size="xs">
        user <Code fz="xs">{auth.username ?? '—'}</Code>
      </Text>
      <Text size="xs" c="dimmed">
        password {auth.password_set ? '•••••• set' : 'not set'}
      </Text>
    </Stack>
  )
}

export function SipTrunksPage() {
  const trpc = useTRPC()
  const trunks = useQuery(trpc.sipTrunks.list.queryOptions())
  const data = trunks.data
  return (
    <Stack gap="sm">
      <Group justify="space-between" h={36}>
        <Title order={3}>SIP trunks</Title>
        {data && (
          <Group gap="xs">
            <Tooltip label={SOURCE[data.source].hint}>
              <Badge color={SOURCE[data.source].color} data-testid="trunk-source" data-source={data.source}>
                {SOURCE[data.source].label}
              </Badge>
            </Tooltip>
            <Text size="xs" c="dimmed">
              {data.total} inbound trunks · read {formatTimestamp(data.fetched_at)}
            </Text>
          </Group>
        )}
      </Group>
      {data?.source === 'store_fallback' && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={16} />} title="Showing the stored copy" data-testid="fallback-reason">
          {data.fallback_reason}
        </Alert>
      )}
      <QueryState query={trunks} isEmpty={(d) => d.trunks.length === 0} empty="No inbound SIP trunks.">
        {(d) => (
          <ListTable
            highlightOnHover
            verticalSpacing={6}
            testId="trunks-table"
            columns={COLUMNS}
            rows={d.trunks}
            rowKey={(t) => t.sip_trunk_id}
            rowProps={(t) => ({ 'data-testid': `trunk-${t.sip_trunk_id}`, style: { verticalAlign: 'top' } })}
            cells={(t) => (
              <>
                <NameIdCell name={t.name} id={t.sip_trunk_id} />
                <Table.Td>
                  <List items={t.numbers} empty="none" />
                </Table.Td>
                <Table.Td>
                  <List items={t.allowed_addresses} empty="any address" testId="allowed-addresses" />
                </Table.Td>
                <Table.Td>
                  <List items={t.allowed_numbers} empty="any number" />
                </Table.Td>
                <Table.Td>
                  <Authentication auth={t.authentication} />
                </Table.Td>
                <Table.Td>
                  <Badge color={t.krisp_enabled ? 'green' : 'gray'} variant={t.krisp_enabled ? 'light' : 'outline'}>
                    {t.krisp_enabled ? 'on' : 'off'}
                  </Badge>
                </Table.Td>
              </>
            )}
          />
        )}
      </QueryState>
    </Stack>
  )
}
