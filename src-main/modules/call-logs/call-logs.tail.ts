import type { Kysely } from 'kysely'
import type { CallLog } from '../../../src-shared/schemas/call-log'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { Database } from '../../db/schema'
import type { Principal } from '../../kit/access'
import { type CallLogLine, resolveFilter, toLines } from './call-logs.search'
import { searchPage } from './call-logs.search.repo'
import { linesInWindow, maxSeq } from './call-logs.tail.repo'
import { StoreClosedError, type StoreWatch } from './store-watch'

/** Lines stored since the last batch, in the order they were stored, and where the next one starts. */
export interface TailBatch {
  lines: CallLogLine[]
  /** Pass back as `after` to resume with the next line stored, none lost and none twice. */
  lastSeq: number
}

export interface FollowOptions {
  /** Resume after this seq (a previous batch's lastSeq); by default, from the lines stored next. */
  after?: number
  /** When starting fresh: first the newest N matching lines already stored, oldest first. */
  backlog?: number
}

/** A line as the API's record (the shape GET /logs/calls returns), without the console's seq and highlights. */
export function apiRecord({ seq: _seq, highlights: _highlights, ...record }: CallLogLine): CallLog {
  return record
}

/** Seqs read per query while catching up: a bulk import's 100k lines arrive as a few dozen batches. */
const WINDOW = 5_000

export function createCallLogTail(db: Kysely<Database>, watch: StoreWatch) {
  /** Waits for the store to change; null when the follower stopped or the store closed. */
  async function nextMax(cursor: number, signal: AbortSignal): Promise<number | null> {
    try {
      return await watch.changedFrom(cursor, signal)
    } catch (error) {
      if (signal.aborted || error instanceof StoreClosedError) return null
      throw error
    }
  }

  return {
    /**
     * The lines matching a filter as they are stored, by anything that writes the file. The first
     * batch comes at once (the backlog, maybe empty) and says where following starts; later ones
     * only when new lines match. Ends when `signal` aborts or the store closes.
     */
    async *follow(principal: Principal, filter: CallLogFilter, options: FollowOptions, signal: AbortSignal): AsyncGenerator<TailBatch> {
      const f = resolveFilter(principal, filter)
      let cursor = options.after ?? (await maxSeq(db))
      let backlog: CallLogLine[] = []
      if (options.after === undefined && options.backlog && f !== 'nothing') {
        const rows = await searchPage(db, f, null, options.backlog)
        backlog = (await toLines(db, f, rows.filter((r) => r.seq <= cursor))).reverse()
      }
      yield { lines: backlog, lastSeq: cursor }
      for (;;) {
        const max = await nextMax(cursor, signal)
        if (max === null) return
        if (max < cursor) {
          // Lines were deleted (a store restored or emptied): follow from its new end.
          cursor = max
          yield { lines: [], lastSeq: cursor }
          continue
        }
        while (cursor < max && !signal.aborted) {
          const upTo = Math.min(max, cursor + WINDOW)
          const rows = f === 'nothing' ? [] : await linesInWindow(db, f, cursor, upTo)
          cursor = upTo
          if (rows.length > 0) yield { lines: await toLines(db, f as Exclude<typeof f, 'nothing'>, rows), lastSeq: cursor }
        }
      }
    },
  }
}

export type CallLogTail = ReturnType<typeof createCallLogTail>
