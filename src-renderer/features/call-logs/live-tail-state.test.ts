import { describe, expect, it } from 'vitest'
import type { CallLogLine } from '../../lib/api-types'
import { LIVE_BUFFER_MAX, LIVE_TAIL_START, type LiveTailAction, liveTailReducer } from './live-tail-state'

const line = (n: number) => ({ id: `l${n}`, seq: n, message: `line ${n}` }) as unknown as CallLogLine
const batch = (from: number, to: number): LiveTailAction => ({ type: 'lines', lines: Array.from({ length: to - from + 1 }, (_, i) => line(from + i)) })
const run = (...actions: LiveTailAction[]) => actions.reduce(liveTailReducer, LIVE_TAIL_START)
const ids = (lines: CallLogLine[]) => lines.map((l) => l.id)

describe('live tail state', () => {
  it('shows new lines newest first as they come', () => {
    expect(ids(run(batch(1, 2), batch(3, 4)).shown)).toEqual(['l4', 'l3', 'l2', 'l1'])
  })

  it('holds lines back while paused, counts them, and shows them all on resume', () => {
    const paused = run(batch(1, 1), { type: 'pause' }, batch(2, 3), batch(4, 4))
    expect(ids(paused.shown)).toEqual(['l1'])
    expect(paused.pendingCount).toBe(3)
    const resumed = liveTailReducer(paused, { type: 'resume' })
    expect(ids(resumed.shown)).toEqual(['l4', 'l3', 'l2', 'l1'])
    expect(resumed).toMatchObject({ pending: [], pendingCount: 0, paused: false })
  })

  it('keeps at most LIVE_BUFFER_MAX lines shown and held back, and counts every line held back', () => {
    const flood = run(batch(1, LIVE_BUFFER_MAX + 10), { type: 'pause' }, batch(LIVE_BUFFER_MAX + 11, 3 * LIVE_BUFFER_MAX))
    expect(flood.shown).toHaveLength(LIVE_BUFFER_MAX)
    expect(flood.shown[0]!.id).toBe(`l${LIVE_BUFFER_MAX + 10}`)
    expect(flood.pending).toHaveLength(LIVE_BUFFER_MAX)
    expect(flood.pendingCount).toBe(2 * LIVE_BUFFER_MAX - 10)
    const resumed = liveTailReducer(flood, { type: 'resume' })
    expect(resumed.shown).toHaveLength(LIVE_BUFFER_MAX)
    expect(resumed.shown[0]!.id).toBe(`l${3 * LIVE_BUFFER_MAX}`)
  })

  it('starts over on reset, and ignores empty batches', () => {
    const state = run(batch(1, 2))
    expect(liveTailReducer(state, { type: 'lines', lines: [] })).toBe(state)
    expect(liveTailReducer(state, { type: 'reset' })).toBe(LIVE_TAIL_START)
  })
})
