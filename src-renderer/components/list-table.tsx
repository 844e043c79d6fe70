import { Table, type TableProps, type TableTrProps } from '@mantine/core'
import type { ReactNode } from 'react'

/** One column of a list table: its header cell. */
export interface Column {
  label?: ReactNode
  w?: number
  /** 'right' for counts and durations. */
  ta?: 'right' | 'center'
}

/** A table's header row, one cell per column. */
export function ListTableHead({ columns }: { columns: readonly Column[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((c, i) => (
          <Table.Th key={i} w={c.w} ta={c.ta}>
            {c.label}
          </Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  )
}

/** What a list table's row carries besides its cells: test ids, data attributes, a colour. */
export type RowProps = TableTrProps & { [attribute: `data-${string}`]: string | undefined }

export interface ListTableProps<T> extends Omit<TableProps, 'children'> {
  columns: readonly Column[]
  rows: readonly T[]
  rowKey: (row: T) => string
  /** One Table.Td per column. */
  cells: (row: T) => ReactNode
  rowProps?: (row: T) => RowProps
  testId?: string
}

/** The console's lists (agents, tenants, tokens, trunks…) are one table shape: a header row from the columns, then a row per item. */
export function ListTable<T>({ columns, rows, rowKey, cells, rowProps, testId, ...table }: ListTableProps<T>) {
  return (
    <Table {...table} data-testid={testId}>
      <ListTableHead columns={columns} />
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)} {...rowProps?.(row)}>
            {cells(row)}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  )
}
