// @vitest-environment happy-dom
import { cleanup } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithTheme } from '../test-utils'
import { JsonView } from './json-view'

afterEach(cleanup)

describe('JsonView', () => {
  const value = {
    transcript: 'שלום, אני רוצה לבטל את ההזמנה',
    'النص': 'مرحبًا، طلبي رقم 5416031',
    nested: { list: [1, 'two', null, true, { 'a"b': 'x\ny' }], empty: [], none: {} },
    latency_ms: 235,
  }

  it('writes what JSON.stringify(value, null, 2) writes', () => {
    const { container } = renderWithTheme(<JsonView value={value} />)
    expect(container.querySelector('pre')!.textContent).toBe(JSON.stringify(value, null, 2))
    expect(container.querySelector('pre')!.getAttribute('dir')).toBe('ltr')
  })

  it('isolates every key and string value, so right-to-left text keeps to its quotes', () => {
    const { container } = renderWithTheme(<JsonView value={value} />)
    const isolated = [...container.querySelectorAll('bdi')].map((b) => b.textContent)
    expect(isolated).toEqual(['transcript', 'שלום, אני רוצה לבטל את ההזמנה', 'النص', 'مرحبًا، طلبي رقم 5416031', 'nested', 'list', 'two', 'a\\"b', 'x\\ny', 'empty', 'none', 'latency_ms'])
  })

  it('renders markup in values as text', () => {
    const { container } = renderWithTheme(<JsonView value={{ html: '<img src=x onerror=alert(1)>' }} />)
    expect(container.querySelector('img')).toBeNull()
  })
})
