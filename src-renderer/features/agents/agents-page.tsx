import { Anchor, Badge, Code, Group, Select, Table, Text, Title } from '@mantine/core'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { type Column, ListTable } from '../../components/list-table'
import { PulledBadge } from '../../components/pulled'
import { QueryState } from '../../components/query-state'
import { SearchInput, useUrlSearch } from '../../components/search-input'
import { CountCell, NameLinkCell } from '../../components/table-cells'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { useUrlParam } from '../../lib/url-param'
import { AgentStatusBadge } from './agent-status'

function Stack2({ top, bottom }: { top: string | null; bottom: string | null }) {
  if (top === null) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    )
  }
  return (
    <>
      <Text size="sm" lh={1.3}>
        {top}
      </Text>
      <Text size="xs" c="dimmed" lh={1.3}>
        {bottom}
      </Text>
    </>
  )
}

const COLUMNS: Column[] = [
  { label: 'Name' },
  { label: 'Tenant' },
  { label: 'Languages', w: 130 },
  { label: 'LLM' },
  { label: 'STT' },
  { label: 'TTS' },
  { label: 'Status', w: 96 },
  { label: 'Sessions', ta: 'right' },
]

export function AgentsPage() {
  const trpc = useTRPC()
  const { search, debounced, setSearch } = useUrlSearch()
  const [tenantId, setTenantId] = useUrlParam('tenant')
  const tenants = useQuery(trpc.tenants.list.queryOptions({}))
  const agents = useQuery({
    ...trpc.agents.list.queryOptions({ search: debounced || undefined, tenantId: tenantId || undefined }),
    placeholderData: keepPreviousData,
  })
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Agents</Title>
        <Group gap="xs">
          <Select
            placeholder="All tenants"
            data={(tenants.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            value={tenantId || null}
            onChange={setTenantId}
            clearable
            searchable
            w={220}
            aria-label="Filter by tenant"
          />
          <SearchInput value={search} onChange={setSearch} w={260} label="Search agents" />
        </Group>
      </Group>
      <QueryState query={agents} isEmpty={(rows) => rows.length === 0} empty="No agent matches these filters.">
        {(rows) => (
          <ListTable
            highlightOnHover
            testId="agents-table"
            columns={COLUMNS}
            rows={rows}
            rowKey={(a) => a.id}
            cells={(a) => (
              <>
                <NameLinkCell to={`/agents/${a.id}`}>{a.name ?? <Code fz="xs">{a.id}</Code>}</NameLinkCell>
                <Table.Td>
                  {a.tenant_id ? (
                    <Anchor component={Link} to={`/tenants/${a.tenant_id}`} size="sm" c="inherit">
                      {a.tenant_name ?? a.tenant_id}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      unknown
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {a.languages.map((l) => (
                      <Badge key={l} color={l === a.primary_language ? 'indigo' : 'gray'} variant={l === a.primary_language ? 'light' : 'outline'} tt="none">
                        {l}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Stack2 top={a.llm_provider} bottom={a.llm_model} />
                </Table.Td>
                <Table.Td>
                  <Stack2 top={a.stt_provider} bottom={a.stt_model} />
                </Table.Td>
                <Table.Td>
                  <Stack2 top={a.tts_provider} bottom={a.tts_model} />
                </Table.Td>
                <Table.Td>
                  {a.pulled ? <PulledBadge title={`Known from a pull of ${a.pulled.source}`} testId="pulled-agent" /> : <AgentStatusBadge status={a.status ?? 'unknown'} />}
                </Table.Td>
                <CountCell>{formatNumber(a.session_count)}</CountCell>
              </>
            )}
          />
        )}
      </QueryState>
    </>
  )
}
