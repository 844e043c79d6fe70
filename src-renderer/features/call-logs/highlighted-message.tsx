import { Fragment, type ReactNode } from 'react'

/**
 * A message with its search matches wrapped in <mark>. The ranges come from the server's FTS5
 * highlight(); text is rendered as React text nodes, never as HTML.
 */
export function HighlightedMessage({ message, highlights }: { message: string; highlights?: Array<[number, number]> }) {
  if (!highlights?.length) return <>{message}</>
  const parts: ReactNode[] = []
  let at = 0
  for (const [start, end] of highlights) {
    if (start < at || end > message.length) continue
    if (start > at) parts.push(message.slice(at, start))
    parts.push(<mark key={start}>{message.slice(start, end)}</mark>)
    at = end
  }
  if (at < message.length) parts.push(message.slice(at))
  return <>{parts.map((p, i) => <Fragment key={i}>{p}</Fragment>)}</>
}
