import { Anchor, Badge, Group, Select, Table, Text, TextInput, Title } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { QueryState } from '../../components/query-state'
import { formatNumber } from '../../lib/format'
import { useTRPC } from '../../lib/trpc'
import { AgentStatusBadge } from './agent-status'

function Stack2({ top, bottom }: { top: string; bottom: string }) {
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

export function AgentsPage() {
  const trpc = useTRPC()
  const [params, setParams] = useSearchParams()
  const search = params.get('q') ?? ''
  const tenantId = params.get('tenant') ?? ''
  const [debounced] = useDebouncedValue(search, 200)
  const tenants = useQuery(trpc.tenants.list.queryOptions({}))
  const agents = useQuery({
    ...trpc.agents.list.queryOptions({ search: debounced || undefined, tenantId: tenantId || undefined }),
    placeholderData: keepPreviousData,
  })
  const update = (key: string, value: string | null) => {
    const next = new URLSearchParams(params)
    if (value) next.set(key, value)
    else next.delete(key)
    setParams(next, { replace: true })
  }
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={3}>Agents</Title>
        <Group gap="xs">
          <Select
            placeholder="All tenants"
            data={(tenants.data ?? []).map((t) => ({ value: t.id, label: t.name }))}
            value={tenantId || null}
            onChange={(v) => update('tenant', v)}
            clearable
            searchable
            w={220}
            aria-label="Filter by tenant"
          />
          <TextInput
            placeholder="Search by name or id"
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => update('q', e.currentTarget.value)}
            w={260}
            aria-label="Search agents"
          />
        </Group>
      </Group>
      <QueryState query={agents} isEmpty={(rows) => rows.length === 0} empty={<Text c="dimmed">No agent matches these filters.</Text>}>
        {(rows) => (
          <Table highlightOnHover data-testid="agents-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th w={130}>Languages</Table.Th>
                <Table.Th>LLM</Table.Th>
                <Table.Th>STT</Table.Th>
                <Table.Th>TTS</Table.Th>
                <Table.Th w={96}>Status</Table.Th>
                <Table.Th ta="right">Sessions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/agents/${a.id}`} size="sm" fw={500}>
                      {a.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/tenants/${a.tenant_id}`} size="sm" c="inherit">
                      {a.tenant_name}
                    </Anchor>
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
                    <AgentStatusBadge status={a.status} />
                  </Table.Td>
                  <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatNumber(a.session_count)}
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
