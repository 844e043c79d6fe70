import { Table, Text } from '@mantine/core'
import type { ImportReport } from '../../lib/api-types'
import { formatNumber } from '../../lib/format'

/** The refused records of an import: where they are in the file and why. */
export function ImportErrors({ report }: { report: ImportReport }) {
  if (report.invalid === 0 && !report.failure) return <Text size="sm" c="dimmed">Every record was accepted.</Text>
  return (
    <>
      {report.failure && (
        <Text size="sm" c="red" mb="xs" data-testid="import-failure">
          Stopped: {report.failure}
        </Text>
      )}
      {report.errors.length > 0 && (
        <Table striped withTableBorder fz="xs" data-testid="import-errors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={80}>Record</Table.Th>
              <Table.Th w={80}>Line</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.errors.map((e) => (
              <Table.Tr key={e.record}>
                <Table.Td>{e.record}</Table.Td>
                <Table.Td>{e.line}</Table.Td>
                <Table.Td>{e.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {report.invalid > report.errors.length && (
        <Text size="xs" c="dimmed" mt={4}>
          The first {report.errors.length} of {formatNumber(report.invalid)} refused records.
        </Text>
      )}
    </>
  )
}
