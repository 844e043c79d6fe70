import { Badge, Table } from '@mantine/core'
import type { ReactNode } from 'react'
import type { ImportReport } from '../../../src-main/modules/imports/imports.service'
import type { PullReport } from '../../../src-main/modules/pull/pulls.service'

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

/** A history row that opens, on click, a full-width row of details beneath it. */
export function ExpandableRow({ open, onToggle, colSpan, cells, details }: { open: boolean; onToggle: () => void; colSpan: number; cells: ReactNode; details: ReactNode }) {
  return (
    <>
      <Table.Tr onClick={onToggle} style={{ cursor: 'pointer' }}>
        {cells}
      </Table.Tr>
      {open && (
        <Table.Tr>
          <Table.Td colSpan={colSpan}>{details}</Table.Td>
        </Table.Tr>
      )}
    </>
  )
}
