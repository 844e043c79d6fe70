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
  it.each([0, 2])('sees every record once, splitting windows that come back full (%i answers ahead)', async (ahead) => {
    const stamps = [...Array.from({ length: 50 }, (_, i) => 1000 + i), ...Array.from({ length: 7 }, (_, i) => 90_000 + i * 1000)]
    const remote = listing(stamps, 10)
    const windows: CallLogWindow[] = []
    await walkCallLogWindows({ from: 0, to: 100_000, limit: 10, initialMs: ahead ? 3000 : 100_001, ahead, fetchWindow: remote.fetchWindow, onWindow: (w) => void windows.push(w) })
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
    // 6 h (one record: ×4), 24 h, 48 h, then the last 90 h: 4 requests for a week.
    expect(remote.calls.length).toBe(4)
  })

  it('sizes windows by the density it meets, so a steady stream costs about one request per 70% of a page', async () => {
    // A record every 10 ms over 1,000,000 ms: 100,000 records, pages of 1,000.
    const stamps = Array.from({ length: 100_000 }, (_, i) => i * 10)
    const remote = listing(stamps, 1000)
    let seen = 0
    await walkCallLogWindows({ from: 0, to: 999_999, initialMs: 1000, fetchWindow: remote.fetchWindow, onWindow: (w) => void (seen += w.records.length) })
    expect(seen).toBe(100_000)
    expect(remote.calls.length).toBeLessThanOrEqual(Math.ceil(100_000 / 700) + 5)
  })

  it('fetches the next window while the last one is stored, and stores them one at a time, in order', async () => {
    const stamps = Array.from({ length: 50 }, (_, i) => i * 100)
    const remote = listing(stamps, 10)
    const events: string[] = []
    let release: (() => void) | undefined
    const walk = walkCallLogWindows({
      from: 0,
      to: 4999,
      limit: 10,
      initialMs: 700,
      fetchWindow: async (start, end) => (events.push(`fetch ${start}`), remote.fetchWindow(start, end)),
      onWindow: (w) =>
        new Promise<void>((resolve) => {
          events.push(`store ${w.start}`)
          release = () => (events.push(`stored ${w.start}`), resolve())
        }),
    })
    // The second window is asked for before the first is stored; nothing more until it is stored.
    await expect.poll(() => events).toEqual(['fetch 0', 'fetch 700', 'store 0'])
    let finished = false
    void walk.then(() => (finished = true))
    while (!finished) {
      await expect.poll(() => release !== undefined || finished).toBe(true)
      const r = release
      release = undefined
      r?.()
    }
    await walk
    const stores = events.filter((e) => e.startsWith('store '))
    expect(stores.map((e) => Number(e.split(' ')[1]))).toEqual([...stores.map((e) => Number(e.split(' ')[1]))].sort((a, b) => a - b))
    // Never two stores at once: each "store" follows the "stored" of the one before.
    const order = events.filter((e) => e.startsWith('store'))
    for (let i = 1; i < order.length; i += 2) expect(order[i]).toBe(`stored ${order[i - 1]!.split(' ')[1]}`)
  })

  it('asks for answers ahead while a window is stored, and stores them in order, one at a time', async () => {
    // A record every 10 ms: windows of 1,000 ms hold 100 records, under the maximum of 1,000.
    const stamps = Array.from({ length: 1000 }, (_, i) => i * 10)
    const remote = listing(stamps, 1000)
    const asked: number[] = []
    const stored: number[] = []
    let storing = 0
    await walkCallLogWindows({
      from: 0,
      to: 9999,
      initialMs: 1000,
      ahead: 2,
      fetchWindow: remote.fetchWindow,
      onWindow: async (w) => {
        expect(++storing).toBe(1)
        asked.push(remote.calls.length)
        stored.push(...(w.records as number[]).sort((a, b) => a - b))
        await new Promise((resolve) => setTimeout(resolve, 1))
        storing--
      },
    })
    expect(stored).toEqual(stamps)
    // When the first window is handed over, it and the next three have been asked for (one next, two ahead).
    expect(asked[0]).toBe(4)
  })

  it('flags a millisecond that holds more than the maximum instead of looping', async () => {
    const remote = listing(Array.from({ length: 12 }, () => 42), 10)
    const windows: CallLogWindow[] = []
    await walkCallLogWindows({ from: 0, to: 99, limit: 10, initialMs: 100, fetchWindow: remote.fetchWindow, onWindow: (w) => void windows.push(w) })
    const saturated = windows.filter((w) => w.saturated)
    expect(saturated).toEqual([{ start: 42, end: 42, records: Array(10).fill(42), saturated: true }])
  })
})
