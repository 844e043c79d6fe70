// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { clearQueryHistory, HISTORY_MAX, queryHistory, recordQuery } from './query-history'

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
})
