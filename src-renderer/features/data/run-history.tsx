import { ActionIcon, Badge, Table, VisuallyHidden } from '@mantine/core'
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react'
import { Fragment, type ReactNode, useId } from 'react'
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
  /** What a row is, for its details button's name ("Details of …"). */
  rowLabel?: (row: T) => string
  testId?: string
  fz?: 'xs' | 'sm'
}

/** The last column: each row's details button, named for screen readers only. */
const TOGGLE_COLUMN: Column = { label: <VisuallyHidden>Details</VisuallyHidden>, w: 40 }

/**
 * A table whose rows open, on click, a full-width row of details beneath them: the import and pull
 * histories and the pulled documents. The details span every column, counted from `columns`, and
 * the details button's.
 */
export function ExpandableTable<T>({ columns, rows, rowKey, rowLabel, openKey, onToggle, cells, details, testId, fz }: ExpandableTableProps<T>) {
  const baseId = useId()
  return (
    <Table highlightOnHover fz={fz} data-testid={testId}>
      <ListTableHead columns={[...columns, TOGGLE_COLUMN]} />
      <Table.Tbody>
        {rows.map((row, index) => {
          const key = rowKey(row)
          const open = key === openKey
          return (
            <Fragment key={key}>
              <Table.Tr onClick={() => onToggle(open ? null : key)} style={{ cursor: 'pointer' }}>
                {cells(row)}
                <Table.Td ta="right">
                  {/* The keyboard's way in (Tab, then Enter or Space): a disclosure button saying whether the details are open. */}
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="sm"
                    aria-expanded={open}
                    aria-controls={open ? `${baseId}-${index}` : undefined}
                    aria-label={rowLabel ? `Details of ${rowLabel(row)}` : 'Details'}
                    data-testid="row-details-toggle"
                    onClick={(e) => {
                      e.stopPropagation()
                      onToggle(open ? null : key)
                    }}
                  >
                    {open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
              {open && (
                <Table.Tr id={`${baseId}-${index}`}>
                  <Table.Td colSpan={columns.length + 1}>{details(row)}</Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          )
        })}
      </Table.Tbody>
    </Table>
  )
}
