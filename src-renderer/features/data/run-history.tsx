import { Badge, Table } from '@mantine/core'
import { Fragment, type ReactNode } from 'react'
import { type Column, ListTableHead } from '../../components/list-table'
import type { ImportReport, PullReport } from '../../lib/api-types'

/** Every status an import or a pull can be in. */
export type RunStatus = ImportReport['status'] | PullReport['status']

const STATUS_COLOR: Record<RunStatus, string> = { running: 'blue', completed: 'green', failed: 'red', interrupted: 'orange', cancelled: 'gray' }

export function RunStatusBadge({ status, testId }: { status: RunStatus; testId?: string }) {
  return (
    <Badge size="sm" variant="light" color={STATUS_COLOR[status]} data-testid={testId}>
      {status}
    </Badge>
  )
}

/** A run's duration cell: "—" while it runs. */
export const runDuration = (durationMs: number | null) => (durationMs === null ? '—' : `${(durationMs / 1000).toFixed(1)} s`)

export interface ExpandableTableProps<T> {
  columns: readonly Column[]
  rows: readonly T[]
  rowKey: (row: T) => string
  /** The key of the row shown open, if any. */
  openKey: string | null
  /** A row was clicked: the key to open, or null to close the open one. */
  onToggle: (key: string | null) => void
  /** One Table.Td per column. */
  cells: (row: T) => ReactNode
  details: (row: T) => ReactNode
  testId?: string
  fz?: 'xs' | 'sm'
}

/**
 * A table whose rows open, on click, a full-width row of details beneath them: the import and pull
 * histories and the pulled documents. The details span every column, counted from `columns`.
 */
export function ExpandableTable<T>({ columns, rows, rowKey, openKey, onToggle, cells, details, testId, fz }: ExpandableTableProps<T>) {
  return (
    <Table highlightOnHover fz={fz} data-testid={testId}>
      <ListTableHead columns={columns} />
      <Table.Tbody>
        {rows.map((row) => {
          const key = rowKey(row)
          const open = key === openKey
          return (
            <Fragment key={key}>
              <Table.Tr onClick={() => onToggle(open ? null : key)} style={{ cursor: 'pointer' }}>
                {cells(row)}
              </Table.Tr>
              {open && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>{details(row)}</Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          )
        })}
      </Table.Tbody>
    </Table>
  )
}
