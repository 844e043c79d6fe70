/** The record maximum of `GET /logs/calls` (spec: 1 to 1000). */
export const CALL_LOG_PAGE_LIMIT = 1000

const HOUR = 3_600_000

/** Epoch milliseconds as the interface's date-time. */
export const iso = (ms: number) => new Date(ms).toISOString()

export interface CallLogWindow {
  /** Inclusive bounds, epoch milliseconds. */
  start: number
  end: number
  records: unknown[]
  /** The window still held the maximum at 1 ms wide: records beyond it could not be reached. */
  saturated: boolean
}

export interface WalkOptions {
  from: number
  to: number
  /** Asks the remote for the records of [start, end]; at most `limit` come back. */
  fetchWindow: (start: number, end: number) => Promise<unknown[]>
  /** Called for each complete window, in time order; the walk goes on when it resolves. */
  onWindow: (window: CallLogWindow) => Promise<void> | void
  limit?: number
  /** First window width (default 6 h); it halves when a window comes back full, doubles when sparse. */
  initialMs?: number
  maxMs?: number
  /** Windows asked for beyond the next one while a window is stored (default 0: one at a time). */
  ahead?: number
}

/** The next window aims at this share of the record maximum: near it, but rarely over. */
const TARGET_SHARE = 0.7

/**
 * The next window's width from the last one's density: as wide as should hold TARGET_SHARE of the
 * maximum, at most 4 times wider (density varies; an overshoot costs a halving) and never narrower
 * than half; an empty window doubles.
 */
export function nextWidth(width: number, records: number, limit: number, maxMs: number): number {
  const wanted = records === 0 ? width * 2 : (width * limit * TARGET_SHARE) / records
  return Math.max(1, Math.min(maxMs, Math.floor(Math.min(width * 4, Math.max(width / 2, wanted)))))
}

/** A window of the walk, its answer asked for (or not yet). */
interface Planned {
  start: number
  end: number
  answer: Promise<unknown[]> | null
}

/**
 * Walks [from, to] in adjacent windows small enough that none holds more than the record
 * maximum: the listing has no cursor and its order is not specified, so a full answer may have
 * left records out, and the only safe move is to ask again for each half of the window. Every
 * record whose timestamp falls in [from, to] is seen once, whatever the order the remote returns.
 * Widths follow the records' density (nextWidth). Answers are asked for ahead of the window being
 * handed over (`ahead` more than the next one), so the remote works while a window is stored;
 * `onWindow` calls still run one at a time, in time order. A window that comes back full is
 * replaced by its halves, in its place: the windows asked for after it stay valid.
 */
export async function walkCallLogWindows(options: WalkOptions): Promise<void> {
  const limit = options.limit ?? CALL_LOG_PAGE_LIMIT
  const maxMs = options.maxMs ?? 7 * 24 * HOUR
  // One request at a time until the remote has answered once: a refused token or a remote that is
  // down fails on the first request, not on several.
  let inFlight = 1
  let size = Math.min(options.initialMs ?? 6 * HOUR, maxMs)
  let next = options.from
  const queue: Planned[] = []
  const ask = (w: Planned) => {
    if (w.answer) return
    w.answer = options.fetchWindow(w.start, w.end)
    // Answers asked ahead may fail while an earlier window is stored: the walk sees it when it gets there.
    w.answer.catch(() => {})
  }
  // The next windows planned at the current width, and the first `inFlight` of them asked for.
  const plan = () => {
    while (queue.length < inFlight && next <= options.to) {
      const end = Math.min(next + size - 1, options.to)
      queue.push({ start: next, end, answer: null })
      next = end + 1
    }
    for (const w of queue.slice(0, inFlight)) ask(w)
  }
  let storing: Promise<void> = Promise.resolve()
  try {
    for (plan(); queue.length; plan()) {
      const w = queue[0]!
      const records = await w.answer!
      const full = records.length >= limit
      queue.shift()
      if (full && w.end > w.start) {
        const half = Math.max(1, Math.floor((w.end - w.start + 1) / 2))
        queue.unshift({ start: w.start, end: w.start + half - 1, answer: null }, { start: w.start + half, end: w.end, answer: null })
        size = Math.min(size, half)
        continue
      }
      size = nextWidth(w.end - w.start + 1, records.length, limit, maxMs)
      inFlight = 1 + Math.max(0, options.ahead ?? 0)
      // The window before is stored before this one is handed over: order and one store at a time.
      await storing
      // The next answers are asked for before this window is stored: a store on this thread runs
      // to its end, and the requests must be on their way by then (a turn of the event loop).
      plan()
      await new Promise((resolve) => setImmediate(resolve))
      storing = Promise.resolve(options.onWindow({ start: w.start, end: w.end, records, saturated: full }))
    }
  } catch (error) {
    await storing.catch(() => {})
    throw error
  }
  await storing
}
