import { Code } from '@mantine/core'
import type { ReactNode } from 'react'

/**
 * JSON as JSON.stringify(value, null, 2) writes it, left to right, with every key and string value
 * in its own <bdi>: an Arabic or Hebrew value reads right to left inside its quotes, and cannot
 * pull the punctuation around it (quotes, commas, the next key) into its direction, which plain
 * text in a <pre> does.
 */
export function JsonView({ value, testId, fz = 'xs', color }: { value: unknown; testId?: string; fz?: string | number; color?: string }) {
  return (
    <Code block fz={fz} dir="ltr" color={color} data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {render(value, '')}
    </Code>
  )
}

/** A string literal as JSON writes it, its content isolated. */
const text = (s: string) => (
  <>
    "<bdi>{JSON.stringify(s).slice(1, -1)}</bdi>"
  </>
)

function render(value: unknown, indent: string): ReactNode {
  if (typeof value === 'string') return text(value)
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  const inner = `${indent}  `
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]'
    return (
      <>
        {'[\n'}
        {value.map((v, i) => (
          <span key={i}>
            {inner}
            {render(v, inner)}
            {i < value.length - 1 ? ',\n' : '\n'}
          </span>
        ))}
        {`${indent}]`}
      </>
    )
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
  if (entries.length === 0) return '{}'
  return (
    <>
      {'{\n'}
      {entries.map(([k, v], i) => (
        <span key={k}>
          {inner}
          {text(k)}
          {': '}
          {render(v, inner)}
          {i < entries.length - 1 ? ',\n' : '\n'}
        </span>
      ))}
      {`${indent}}`}
    </>
  )
}
