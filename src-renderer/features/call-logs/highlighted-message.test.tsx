// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { HighlightedMessage } from './highlighted-message'

afterEach(cleanup)

describe('HighlightedMessage', () => {
  it('marks the matched ranges and keeps the rest as text', () => {
    const { container } = render(<HighlightedMessage message="LLM request timed out after 10000 ms" highlights={[[12, 17], [18, 21]]} />)
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['timed', 'out'])
    expect(container.textContent).toBe('LLM request timed out after 10000 ms')
  })

  it('renders markup in a message as text, never as HTML', () => {
    const message = '<img src=x onerror=alert(1)> failed'
    const start = message.indexOf('failed')
    const { container } = render(<HighlightedMessage message={message} highlights={[[start, start + 6]]} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.textContent).toBe(message)
    expect(container.querySelector('mark')?.textContent).toBe('failed')
  })

  it('ignores ranges that overlap or run past the end', () => {
    const { container } = render(<HighlightedMessage message="abcdef" highlights={[[0, 2], [1, 3], [4, 99]]} />)
    expect([...container.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['ab'])
    expect(container.textContent).toBe('abcdef')
  })

  it('keeps right-to-left text intact around a match', () => {
    const message = 'طلبي رقم 1927751 لم يصل'
    const start = message.indexOf('1927751')
    const { container } = render(<HighlightedMessage message={message} highlights={[[start, start + 7]]} />)
    expect(container.textContent).toBe(message)
    expect(container.querySelector('mark')?.textContent).toBe('1927751')
  })
})
