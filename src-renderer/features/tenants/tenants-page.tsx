import { Badge, Group, Table, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { type Column, ListTable } from '../../components/list-table'
import { QueryState } from '../../components/query-state'
import { SearchInput, useUrlSearch } from '../../components/search-input'
import { NameLinkCell } from '../../components/table-cells'
import { formatCents } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { StatusBadge } from './status-badge'

const COLUMNS: Column[] = [
  { label: 'Name' },
  { label: 'Plan' },
  { label: 'Status' },
  { label: 'Compliance' },
  { label: 'Agents', ta: 'right' },
  { label: 'Usage this month', w: 200 },
]

export function TenantsPage() {
  const trpc = useTRPC()
  const { search, debounced, setSearch } = useUrlSearch()
  const tenants = useQuery({ ...trpc.tenants.list.queryOptions({ search: debounced || undefined }), placeholderData: keepPreviousData })
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Tenants</Title>
        <SearchInput value={search} onChange={setSearch} w={280} label="Search tenants" />
      </Group>
      <QueryState query={tenants} isEmpty={(rows) => rows.length === 0} empty={search.trim() ? `No tenant matches “${search}”.` : 'No tenants in this store yet: pull them from a backend or open a demo pack (Data page).'}>
        {(rows) => (
          <ListTable
            highlightOnHover
            testId="tenants-table"
            columns={COLUMNS}
            rows={rows}
            rowKey={(t) => t.id}
            cells={(t) => (
              <>
                <NameLinkCell to={`/tenants/${t.id}`}>{t.name}</NameLinkCell>
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
              </>
            )}
          />
        )}
      </QueryState>
    </>
  )
}
