import { Box, Group, Text, TextInput } from '@mantine/core'
import { useDebouncedValue } from '@mantine/hooks'
import { IconSearch } from '@tabler/icons-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { LogQueryError } from '../../../src-shared/log-query/ast'
import { parseLogQuery } from '../../../src-shared/log-query/parser'
import { QueryHelp } from './query-help'
import { recordQuery } from './query-history'
import { QueryHistoryMenu } from './query-history-menu'
import './call-log-table.css'

interface QueryBoxProps {
  /** The query in the URL: the last one that parsed. */
  value?: string
  onCommit: (query: string | undefined) => void
}

/** The query with the part in error marked, under the box: where, not just what. */
function ErrorPointer({ text, error }: { text: string; error: LogQueryError }) {
  const end = Math.min(text.length, error.offset + Math.max(error.length, 1))
  return (
    <Box data-testid="query-error">
      <Text size="xs" className="call-log-query-error" lh={1.4}>
        Column {error.offset + 1}: {error.message}. {error.hint}
      </Text>
      <Text size="xs" ff="monospace" className="call-log-query-pointer" aria-hidden>
        {text.slice(0, error.offset)}
        <mark>{text.slice(error.offset, end) || ' '}</mark>
        {text.slice(end)}
      </Text>
    </Box>
  )
}

/**
 * The explorer's one-line query (src-shared/log-query). It is parsed as it is typed, in the page:
 * a query that parses goes to the URL once typing pauses (so the view is a link); one that does
 * not stays in the box with its error under it, and the rows keep showing the last good query.
 */
export function QueryBox({ value, onCommit }: QueryBoxProps) {
  const [text, setText] = useState(value ?? '')
  const [debounced] = useDebouncedValue(text, 300)
  const parsed = useMemo(() => parseLogQuery(debounced), [debounced])
  // What this box last sent: a URL that says something else was changed from elsewhere. Compared
  // with this rather than with the text, since a navigation may render after the next keystroke.
  const sent = useRef(value)
  const commit = (query: string | undefined) => {
    if (query === sent.current) return
    sent.current = query
    onCommit(query)
  }
  useEffect(() => {
    // Only the debounced text drives the URL, and only while the box still holds it (Enter may
    // have sent newer text before the pause ended).
    if (parsed.ok && debounced === text) commit(debounced.trim() || undefined)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced, parsed])
  useEffect(() => {
    if (value === sent.current) return
    // The URL changed from elsewhere (a link, Clear filters, a pivot, a saved view).
    sent.current = value
    setText(value ?? '')
  }, [value])
  const error = !parsed.ok && debounced === text ? parsed.error : null
  const pick = (example: string) => setText(text.trim() ? `${text.trim()} ${example}` : example)
  const [historyOpen, setHistoryOpen] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const rerun = (query: string) => {
    setText(query)
    commit(query)
    recordQuery(query)
  }
  // Closing the list (a query picked, Escape) gives the keys back to the box, to refine the query;
  // unless a click outside put them somewhere else.
  const setHistory = (open: boolean) => {
    setHistoryOpen(open)
    if (open) return
    setTimeout(() => {
      const at = document.activeElement
      if (at === null || at === document.body || at.closest('[data-menu-dropdown]')) input.current?.focus()
    })
  }

  return (
    <Group gap={4} align="flex-start" wrap="nowrap" data-testid="query-box">
      <TextInput
        ref={input}
        label="Query"
        size="xs"
        style={{ flex: 1 }}
        leftSection={<IconSearch size={14} />}
        placeholder='level:error (imeout OR "rate limit") -type:webhook @last 24h'
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          // Enter commits at once (no wait for the pause), and the query goes into the history.
          // The box's own value: a render may not have caught up with the last keystroke yet.
          const typed = e.currentTarget.value
          if (e.key === 'Enter' && parseLogQuery(typed).ok) {
            commit(typed.trim() || undefined)
            recordQuery(typed)
          }
          // ↓ opens the recent queries (the box is one line: the key has no other use here).
          if (e.key === 'ArrowDown' && !e.altKey && !e.ctrlKey && !e.metaKey) {
            e.preventDefault()
            setHistoryOpen(true)
          }
        }}
        aria-keyshortcuts="ArrowDown"
        aria-description="Press the down arrow for recent queries"
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        error={error ? <ErrorPointer text={debounced} error={error} /> : undefined}
        spellCheck={false}
        autoComplete="off"
        data-testid="query-input"
      />
      <Group mt={22} gap={0} wrap="nowrap">
        <QueryHistoryMenu onPick={rerun} opened={historyOpen} setOpened={setHistory} />
        <QueryHelp onPick={pick} />
      </Group>
    </Group>
  )
}
