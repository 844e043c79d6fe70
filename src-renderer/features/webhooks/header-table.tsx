import { Table } from '@mantine/core'

/** HTTP headers, one row each, as a webhook request or answer carried them. */
export function HeaderTable({ headers, testId }: { headers: Record<string, string>; testId: string }) {
  return (
    <Table fz="xs" verticalSpacing={2} data-testid={testId}>
      <Table.Tbody>
        {Object.entries(headers).map(([name, value]) => (
          <Table.Tr key={name}>
            <Table.Td w={170} ff="monospace" c="dimmed">
              {name}
            </Table.Td>
            <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
