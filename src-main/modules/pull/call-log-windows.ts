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

/**
 * Walks [from, to] in adjacent windows small enough that none holds more than the record
 * maximum: the listing has no cursor and its order is not specified, so a full answer may have
 * left records out, and the only safe move is to ask again for half the window. Every record
 * whose timestamp falls in [from, to] is seen once, whatever the order the remote returns.
 */
export async function walkCallLogWindows(options: WalkOptions): Promise<void> {
  const limit = options.limit ?? CALL_LOG_PAGE_LIMIT
  const maxMs = options.maxMs ?? 7 * 24 * HOUR
  let size = Math.min(options.initialMs ?? 6 * HOUR, maxMs)
  let start = options.from
  while (start <= options.to) {
    const end = Math.min(start + size - 1, options.to)
    const records = await options.fetchWindow(start, end)
    const full = records.length >= limit
    if (full && end > start) {
      size = Math.max(1, Math.floor((end - start + 1) / 2))
      continue
    }
    await options.onWindow({ start, end, records, saturated: full })
    start = end + 1
    if (records.length < limit / 4) size = Math.min(size * 2, maxMs)
  }
}
