import { Table, Text } from '@mantine/core'
import { type Column, ListTable } from '../../components/list-table'
import type { ImportReport } from '../../lib/api-types'
import { formatNumber } from '../../lib/format'

const COLUMNS: Column[] = [{ label: 'Record', w: 80 }, { label: 'Line', w: 80 }, { label: 'Reason' }]

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
        <ListTable
          striped
          withTableBorder
          fz="xs"
          testId="import-errors"
          columns={COLUMNS}
          rows={report.errors}
          rowKey={(e) => String(e.record)}
          cells={(e) => (
            <>
              <Table.Td>{e.record}</Table.Td>
              <Table.Td>{e.line}</Table.Td>
              <Table.Td>{e.reason}</Table.Td>
            </>
          )}
        />
      )}
      {report.invalid > report.errors.length && (
        <Text size="xs" c="dimmed" mt={4}>
          The first {report.errors.length} of {formatNumber(report.invalid)} refused records.
        </Text>
      )}
    </>
  )
}
