import { describe, expect, it } from 'vitest'
import { walkCallLogWindows, type CallLogWindow } from './call-log-windows'

/** A fake listing over known timestamps: inclusive bounds, at most `limit`, newest first. */
const listing = (stamps: number[], limit: number) => {
  const calls: Array<[number, number]> = []
  return {
    calls,
    fetchWindow: async (start: number, end: number) => {
      calls.push([start, end])
      return stamps.filter((t) => t >= start && t <= end).sort((a, b) => b - a).slice(0, limit)
    },
  }
}

describe('walkCallLogWindows', () => {
  it('sees every record once, splitting windows that come back full', async () => {
    const stamps = [...Array.from({ length: 50 }, (_, i) => 1000 + i), ...Array.from({ length: 7 }, (_, i) => 90_000 + i * 1000)]
    const remote = listing(stamps, 10)
    const windows: CallLogWindow[] = []
    await walkCallLogWindows({ from: 0, to: 100_000, limit: 10, initialMs: 100_001, fetchWindow: remote.fetchWindow, onWindow: (w) => void windows.push(w) })
    const seen = windows.flatMap((w) => w.records as number[]).sort((a, b) => a - b)
    expect(seen).toEqual([...stamps].sort((a, b) => a - b))
    // Adjacent, in order, covering the range exactly.
    expect(windows[0]!.start).toBe(0)
    expect(windows.at(-1)!.end).toBe(100_000)
    for (let i = 1; i < windows.length; i++) expect(windows[i]!.start).toBe(windows[i - 1]!.end + 1)
    expect(windows.every((w) => w.records.length < 10 && !w.saturated)).toBe(true)
  })

  it('widens again after sparse windows, so an empty week costs few requests', async () => {
    const remote = listing([5], 1000)
    await walkCallLogWindows({ from: 0, to: 7 * 24 * 3_600_000, fetchWindow: remote.fetchWindow, onWindow: () => {} })
    // 6 h, 12 h, 24 h, 48 h, then the last 78 h: 5 requests for a week.
    expect(remote.calls.length).toBe(5)
  })

  it('flags a millisecond that holds more than the maximum instead of looping', async () => {
    const remote = listing(Array.from({ length: 12 }, () => 42), 10)
    const windows: CallLogWindow[] = []
    await walkCallLogWindows({ from: 0, to: 99, limit: 10, initialMs: 100, fetchWindow: remote.fetchWindow, onWindow: (w) => void windows.push(w) })
    const saturated = windows.filter((w) => w.saturated)
    expect(saturated).toEqual([{ start: 42, end: 42, records: Array(10).fill(42), saturated: true }])
  })
})
