/** The record maximum of `GET /logs/calls` (spec: 1 to 1000). */
export const CALL_LOG_PAGE_LIMIT = 1000

const HOUR = 3_600_000

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

/**
 * Walks [from, to] in adjacent windows small enough that none holds more than the record
 * maximum: the listing has no cursor and its order is not specified, so a full answer may have
 * left records out, and the only safe move is to ask again for half the window. Every record
 * whose timestamp falls in [from, to] is seen once, whatever the order the remote returns.
 * Widths follow the records' density (nextWidth), and the next window is fetched while the last
 * one is stored: `onWindow` calls still run one at a time, in time order.
 */
export async function walkCallLogWindows(options: WalkOptions): Promise<void> {
  const limit = options.limit ?? CALL_LOG_PAGE_LIMIT
  const maxMs = options.maxMs ?? 7 * 24 * HOUR
  let size = Math.min(options.initialMs ?? 6 * HOUR, maxMs)
  let start = options.from
  let storing: Promise<void> = Promise.resolve()
  try {
    while (start <= options.to) {
      const end = Math.min(start + size - 1, options.to)
      const records = await options.fetchWindow(start, end)
      const full = records.length >= limit
      if (full && end > start) {
        size = Math.max(1, Math.floor((end - start + 1) / 2))
        continue
      }
      // The window before is stored before this one is handed over: order and one store at a time.
      await storing
      storing = Promise.resolve(options.onWindow({ start, end, records, saturated: full }))
      size = nextWidth(end - start + 1, records.length, limit, maxMs)
      start = end + 1
    }
  } catch (error) {
    await storing.catch(() => {})
    throw error
  }
  await storing
}
