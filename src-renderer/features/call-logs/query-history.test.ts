// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { clearQueryHistory, HISTORY_MAX, queryHistory, recordQuery, SETTLE_MS, useRecordSettledQuery } from './query-history'

const queries = () => queryHistory().map((e) => e.query)

describe('recent queries', () => {
  beforeEach(() => clearQueryHistory())

  it('keeps the newest first, each query once, and what was run again moves up', () => {
    for (const q of ['level:error', 'imeout', ' type:llm ', 'level:error', '', '   ']) recordQuery(q, new Date('2026-11-24T10:00:00.000Z'))
    expect(queries()).toEqual(['level:error', 'type:llm', 'imeout'])
    expect(queryHistory()[0]).toEqual({ query: 'level:error', at: '2026-11-24T10:00:00.000Z' })
    expect(JSON.parse(localStorage.getItem('callscope.logs.queryHistory')!)).toEqual(queryHistory())
  })

  it(`keeps at most ${HISTORY_MAX}, dropping the oldest`, () => {
    for (let i = 0; i < HISTORY_MAX + 5; i++) recordQuery(`q${i}`)
    expect(queries()).toHaveLength(HISTORY_MAX)
    expect(queries()[0]).toBe(`q${HISTORY_MAX + 4}`)
    expect(queries().at(-1)).toBe('q5')
  })

  it('clears', () => {
    recordQuery('a')
    clearQueryHistory()
    expect(queryHistory()).toEqual([])
    expect(localStorage.getItem('callscope.logs.queryHistory')).toBe('[]')
  })

  describe('a view\'s query, once it settles', () => {
    beforeEach(() => vi.useFakeTimers())
    afterEach(() => {
      cleanup()
      vi.useRealTimers()
    })
    const settle = (query: string, parses = true) => renderHook(({ q, ok }) => useRecordSettledQuery(q, ok), { initialProps: { q: query, ok: parses } })

    it('is recorded after it stayed, not while it changes, and not when it does not parse', () => {
      const view = settle('level:error')
      vi.advanceTimersByTime(SETTLE_MS - 1)
      view.rerender({ q: 'level:error type:llm', ok: true })
      vi.advanceTimersByTime(SETTLE_MS - 1)
      expect(queries()).toEqual([])
      vi.advanceTimersByTime(1)
      expect(queries()).toEqual(['level:error type:llm'])
      view.rerender({ q: 'level:(', ok: false })
      vi.advanceTimersByTime(SETTLE_MS * 2)
      expect(queries()).toEqual(['level:error type:llm'])
    })

    it('is not recorded after a clear made while it was settling', () => {
      // A page opened on a query, and the list cleared within the settling time: it stays empty.
      settle('type:llm')
      recordQuery('imeout')
      clearQueryHistory()
      vi.advanceTimersByTime(SETTLE_MS * 2)
      expect(queries()).toEqual([])
      // A query the view moves to after the clear is recorded as usual.
      settle('level:warning')
      vi.advanceTimersByTime(SETTLE_MS)
      expect(queries()).toEqual(['level:warning'])
    })
  })
})
