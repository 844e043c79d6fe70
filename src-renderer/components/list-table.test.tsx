// @vitest-environment happy-dom
import { Table } from '@mantine/core'
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithTheme } from '../test-utils'
import { ListTable } from './list-table'

afterEach(cleanup)

describe('ListTable', () => {
  it('draws a header cell per column and a row per item, with the row attributes asked for', () => {
    const rows = [
      { id: 'a', name: 'Aria', calls: 3 },
      { id: 'b', name: 'Bo', calls: 12 },
    ]
    renderWithTheme(
      <ListTable
        testId="people"
        columns={[{ label: 'Name' }, { label: 'Calls', ta: 'right', w: 90 }]}
        rows={rows}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-testid': `row-${r.id}` })}
        cells={(r) => (
          <>
            <Table.Td>{r.name}</Table.Td>
            <Table.Td>{r.calls}</Table.Td>
          </>
        )}
      />,
    )
    const table = screen.getByTestId('people')
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toEqual(['Name', 'Calls'])
    expect([...table.querySelectorAll('tbody tr')].map((tr) => tr.textContent)).toEqual(['Aria3', 'Bo12'])
    expect(screen.getByTestId('row-b').textContent).toBe('Bo12')
  })
})
