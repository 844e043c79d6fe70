import { Anchor, Badge, Group, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { type Column, ListTable } from '../../components/list-table'
import { PulledBadge } from '../../components/pulled'
import { QueryState } from '../../components/query-state'
import { useTRPC } from '../../lib/trpc'
import { StrategyBadge } from './strategy'

const COLUMNS: Column[] = [{ label: 'Name' }, { label: 'Tenant' }, { label: 'Routing strategy' }, { label: 'Members', ta: 'right' }]

export function SquadsPage() {
  const trpc = useTRPC()
  const squads = useQuery(trpc.squads.list.queryOptions())
  return (
    <>
      <Group justify="space-between" mb="md" h={36}>
        <Title order={3}>Squads</Title>
        {squads.data && (
          <Text size="sm" c="dimmed">
            {squads.data.length} squads
          </Text>
        )}
      </Group>
      <QueryState query={squads} isEmpty={(rows) => rows.length === 0} empty="No squads yet.">
        {(rows) => (
          <ListTable
            highlightOnHover
            testId="squads-table"
            columns={COLUMNS}
            rows={rows}
            rowKey={(s) => s.id}
            cells={(s) => (
              <>
                <Table.Td>
                  <Anchor component={Link} to={`/squads/${s.id}`} size="sm" fw={500}>
                    {s.name}
                  </Anchor>
                  {s.pulled && <PulledBadge ml="xs" size="xs" title={`Analytics pulled from ${s.pulled.source}`} testId="pulled-squad" />}
                </Table.Td>
                <Table.Td>
                  {s.tenant_id ? (
                    <Anchor component={Link} to={`/tenants/${s.tenant_id}`} size="sm" c="dimmed">
                      {s.tenant_name ?? s.tenant_id}
                    </Anchor>
                  ) : (
                    <Text size="sm" c="dimmed">
                      not stated
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <StrategyBadge strategy={s.routing_strategy} />
                </Table.Td>
                <Table.Td ta="right">
                  {s.member_count === null ? (
                    <Text span size="sm" c="dimmed">
                      —
                    </Text>
                  ) : s.member_count === 0 ? (
                    <Badge color="gray" variant="outline">
                      none
                    </Badge>
                  ) : (
                    s.member_count
                  )}
                </Table.Td>
              </>
            )}
          />
        )}
      </QueryState>
    </>
  )
}
