import { Box, Center, Loader, Text } from '@mantine/core'
import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useMemo, useRef } from 'react'
import type { CallLogLine } from '../../lib/api-types'
import { columnSpecs, gridTemplate } from './call-log-columns'
import { useTimeZone } from './time-zone'
import './call-log-table.css'

/** Fixed: the virtualizer never measures, rows never shift, a million rows scroll like ten. */
export const ROW_HEIGHT = 30

interface CallLogTableProps {
  rows: CallLogLine[]
  agentNames: Map<string, string>
  tenantNames: Map<string, string>
  /** The view's columns, in order (call-log-columns.tsx). */
  columns: readonly string[]
  selectedIndex: number
  onSelect: (index: number) => void
  onOpen: (index: number) => void
  hasMore: boolean
  loadingMore: boolean
  loadMore: () => void
  /** Told when the list leaves its top or comes back to it (the live tail pauses while away). */
  onTopChange?: (atTop: boolean) => void
  /** Each new value scrolls the list back to its first row. */
  toTop?: number
}

/**
 * Memoized: while a new filter's rows load, the page re-renders with the previous rows (kept as
 * placeholder data), and re-rendering a screenful of rows would delay the request for the new ones.
 */
export const CallLogTable = memo(function CallLogTable({ rows, agentNames, tenantNames, columns, selectedIndex, onSelect, onOpen, hasMore, loadingMore, loadMore, onTopChange, toTop }: CallLogTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const atTop = useRef(true)
  const { timeZone } = useTimeZone()
  const specs = useMemo(() => columnSpecs(columns), [columns])
  const template = useMemo(() => gridTemplate(specs), [specs])
  const ctx = { timeZone, agentNames, tenantNames }
  const virtualizer = useVirtualizer({
    count: rows.length + (hasMore ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  })
  const items = virtualizer.getVirtualItems()
  const lastIndex = items.length > 0 ? items[items.length - 1]!.index : -1

  // Infinite loading: ask for the next page while the last loaded rows are still below the fold.
  useEffect(() => {
    if (hasMore && !loadingMore && lastIndex >= rows.length - 30) loadMore()
  }, [hasMore, loadingMore, lastIndex, rows.length, loadMore])

  useEffect(() => {
    if (selectedIndex < 0) return
    virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
    // Keyboard focus follows the selection (j/k, arrows) while it is in the list.
    const list = scrollRef.current
    if (list?.contains(document.activeElement)) list.querySelector<HTMLElement>(`[data-index="${selectedIndex}"]`)?.focus({ preventScroll: true })
  }, [selectedIndex, virtualizer])

  useEffect(() => {
    if (toTop === undefined) return
    scrollRef.current?.scrollTo({ top: 0 })
  }, [toTop])

  const onScroll = () => {
    const top = (scrollRef.current?.scrollTop ?? 0) < ROW_HEIGHT / 2
    if (top !== atTop.current) {
      atTop.current = top
      onTopChange?.(top)
    }
  }

  // One tab stop for the whole list (a roving tabindex): the selected row, or the first one drawn.
  const tabStop = items.some((item) => item.index === selectedIndex && rows[item.index]) ? selectedIndex : (items[0]?.index ?? -1)

  return (
    <Box className="cs-logs-table" role="table" aria-label="Call logs" aria-rowcount={hasMore ? -1 : rows.length + 1} data-testid="call-log-table">
      <div className="cs-logs-header" role="row" aria-rowindex={1} style={{ gridTemplateColumns: template }} data-testid="call-log-columns">
        {specs.map((c) => (
          <div key={c.name} role="columnheader" data-column={c.name}>
            {c.header(ctx)}
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="cs-logs-scroll" onScroll={onScroll}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index]
            if (!row) {
              return (
                <Center key="more" className="cs-logs-row" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                  {loadingMore ? <Loader size="xs" /> : <Text size="xs" c="dimmed">…</Text>}
                </Center>
              )
            }
            const selected = item.index === selectedIndex
            return (
              <div
                key={row.id}
                role="row"
                aria-rowindex={item.index + 2}
                aria-selected={selected}
                tabIndex={item.index === tabStop ? 0 : -1}
                data-testid="call-log-row"
                data-id={row.id}
                data-index={item.index}
                className="cs-logs-row"
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, gridTemplateColumns: template }}
                onFocus={() => {
                  if (!selected) onSelect(item.index)
                }}
                onClick={() => {
                  onSelect(item.index)
                  onOpen(item.index)
                }}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return
                  e.preventDefault()
                  e.stopPropagation()
                  onSelect(item.index)
                  onOpen(item.index)
                }}
              >
                {specs.map((c) => (
                  <div key={c.name} role="cell" className={c.className} title={c.title?.(row)} data-testid={c.testId}>
                    {c.cell(row, ctx)}
                  </div>
                ))}
              </div>
            )
          })}
        </div>
      </div>
    </Box>
  )
})
