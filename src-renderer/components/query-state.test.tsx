// @vitest-environment happy-dom
import type { UseQueryResult } from '@tanstack/react-query'
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithTheme } from '../test-utils'
import { QueryState } from './query-state'

afterEach(cleanup)

const query = <T,>(state: Partial<UseQueryResult<T, { message: string }>>) => state as UseQueryResult<T, { message: string }>

describe('QueryState', () => {
  it('shows a loader while pending', () => {
    renderWithTheme(<QueryState query={query<string[]>({ isPending: true })}>{() => 'content'}</QueryState>)
    expect(screen.getByTestId('loading')).toBeTruthy()
    expect(screen.queryByText('content')).toBeNull()
  })

  it('shows the error message when the query failed', () => {
    renderWithTheme(
      <QueryState query={query<string[]>({ isPending: false, isError: true, error: { message: 'Tenant not found' } })}>{() => 'content'}</QueryState>,
    )
    expect(screen.getByTestId('error-state').textContent).toContain('Tenant not found')
  })

  it('shows the empty state for empty data and the content otherwise', () => {
    const empty = renderWithTheme(
      <QueryState query={query<string[]>({ isPending: false, isError: false, data: [] })} isEmpty={(d) => d.length === 0} empty="No tenants">
        {(d) => d.join(',')}
      </QueryState>,
    )
    expect(screen.getByTestId('empty-state').textContent).toBe('No tenants')
    empty.unmount()
    renderWithTheme(
      <QueryState query={query<string[]>({ isPending: false, isError: false, data: ['a', 'b'] })} isEmpty={(d) => d.length === 0}>
        {(d) => d.join(',')}
      </QueryState>,
    )
    expect(screen.getByText('a,b')).toBeTruthy()
  })
})
