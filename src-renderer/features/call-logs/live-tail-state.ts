import type { CallLogLine } from '../../lib/api-types'

/** The most live lines the explorer keeps, shown and held back each: memory stays bounded at any rate. */
export const LIVE_BUFFER_MAX = 5_000

/**
 * The explorer's live lines, newest first. While the user reads (scrolled away, a line open),
 * new lines are held back in `pending` so nothing moves under their eyes; `pendingCount` counts
 * every one that came, beyond the buffer too.
 */
export interface LiveTailState {
  shown: CallLogLine[]
  pending: CallLogLine[]
  pendingCount: number
  paused: boolean
}

export type LiveTailAction =
  | { type: 'lines'; lines: CallLogLine[] }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'reset' }

export const LIVE_TAIL_START: LiveTailState = { shown: [], pending: [], pendingCount: 0, paused: false }

/** Newest first, at most LIVE_BUFFER_MAX: the oldest fall off. */
const prepend = (newest: CallLogLine[], older: CallLogLine[]) => [...newest, ...older].slice(0, LIVE_BUFFER_MAX)

export function liveTailReducer(state: LiveTailState, action: LiveTailAction): LiveTailState {
  switch (action.type) {
    case 'lines': {
      if (action.lines.length === 0) return state
      // A batch comes in stored order, oldest first.
      const newest = action.lines.slice().reverse()
      if (state.paused) return { ...state, pending: prepend(newest, state.pending), pendingCount: state.pendingCount + newest.length }
      return { ...state, shown: prepend(newest, state.shown) }
    }
    case 'pause':
      return state.paused ? state : { ...state, paused: true }
    case 'resume':
      return { shown: prepend(state.pending, state.shown), pending: [], pendingCount: 0, paused: false }
    case 'reset':
      return LIVE_TAIL_START
  }
}
