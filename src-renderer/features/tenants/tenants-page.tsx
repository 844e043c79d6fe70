import { Anchor, Badge, Group, Table, Text, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { QueryState } from '../../components/query-state'
import { formatCents } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { StatusBadge } from './status-badge'

export function TenantsPage() {
  const trpc = useTRPC()
  const [params, setParams] = useSearchParams()
  const search = params.get('q') ?? ''
  const [debounced] = useDebouncedValue(search, 200)
  const tenants = useQuery({ ...trpc.tenants.list.queryOptions({ search: debounced || undefined }), placeholderData: keepPreviousData })
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Tenants</Title>
        <TextInput
          placeholder="Search by name or id"
          leftSection={<IconSearch size={14} />}
          value={search}
          onChange={(e) => setParams(e.currentTarget.value ? { q: e.currentTarget.value } : {}, { replace: true })}
          w={280}
          aria-label="Search tenants"
        />
      </Group>
      <QueryState query={tenants} isEmpty={(rows) => rows.length === 0} empty={<Text c="dimmed">No tenant matches “{search}”.</Text>}>
        {(rows) => (
          <Table highlightOnHover data-testid="tenants-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Plan</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Compliance</Table.Th>
                <Table.Th ta="right">Agents</Table.Th>
                <Table.Th w={200}>Usage this month</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/tenants/${t.id}`} size="sm" fw={500}>
                      {t.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{t.billing_plan}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={t.status} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {t.hipaa_enabled && <Badge color="teal">HIPAA</Badge>}
                      {t.pci_enabled && <Badge color="grape">PCI</Badge>}
                      {t.sip_enabled && <Badge color="gray">SIP</Badge>}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{t.agent_count}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{formatCents(t.monthly_usage_cents)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </>
  )
}

