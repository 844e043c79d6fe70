import { Alert, Card, Group, Table, Text } from '@mantine/core'
import { IconLock } from '@tabler/icons-react'
import type { ReactNode } from 'react'

/** A titled card: the building block of the console's detail pages. */
export function Section({ title, right, children, testId, h }: { title: string; right?: ReactNode; children: ReactNode; testId?: string; h?: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId} h={h}>
      <Group justify="space-between" mb="xs" wrap="nowrap" mih={22}>
        <Text fw={600} size="sm">
          {title}
        </Text>
        {right}
      </Group>
      {children}
    </Card>
  )
}

/** Label/value rows. */
export function Fields({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Table>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Td w="40%" c="dimmed">
              {label}
            </Table.Td>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}

/** The tRPC error code of a failed query or mutation, if any. */
export const errorCode = (error: unknown): string | undefined => (error as { data?: { code?: string } } | null)?.data?.code

/** What a page shows instead of its content when the signed-in token's role may not see it. */
export function NeedsRole({ what, role = 'an admin' }: { what: string; role?: string }) {
  return (
    <Alert color="gray" variant="light" icon={<IconLock size={16} />} title={`${what} needs ${role} token`} data-testid="needs-admin">
      You are signed in with a token that may not see this. Sign out and sign in with {role} token (from the first start of
      <code> callscope serve</code> or <code>callscope token create --role admin</code>).
    </Alert>
  )
}
