import { Anchor, Badge, Group, Table, Text, Title } from '@mantine/core'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'react-router'
import { QueryState } from '../../components/query-state'
import { useTRPC } from '../../lib/trpc'
import { StrategyBadge } from './strategy'

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
      <QueryState query={squads} isEmpty={(rows) => rows.length === 0} empty={<Text c="dimmed">No squads yet.</Text>}>
        {(rows) => (
          <Table highlightOnHover data-testid="squads-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Tenant</Table.Th>
                <Table.Th>Routing strategy</Table.Th>
                <Table.Th ta="right">Members</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/squads/${s.id}`} size="sm" fw={500}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/tenants/${s.tenant_id}`} size="sm" c="dimmed">
                      {s.tenant_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <StrategyBadge strategy={s.routing_strategy} />
                  </Table.Td>
                  <Table.Td ta="right">
                    {s.member_count === 0 ? <Badge color="gray" variant="outline">none</Badge> : s.member_count}
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
