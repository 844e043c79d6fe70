import type { AckMessage, FeedMessage } from '../../lib/worker-feed'
import type { FetchedWindow, WalkRange } from './checked-windows'
import type { RemoteAttempt, RemoteClientOptions, RemoteErrorKind } from './remote-client'

/*
 * The fetch worker's messages (fetch-worker.ts, windows-in-worker.ts): a feed of checked windows
 * as lib/worker-feed.ts carries an import's parsed batches, plus the pull's own news.
 */

/** What the worker is started with. */
export interface FetchWorkerData {
  client: Omit<RemoteClientOptions, 'signal' | 'onAttempt'>
  range: WalkRange
  tenantId: string | null
  /** The pull's own client's Retry-After hold (epoch ms, 0 for none): the worker's requests keep it too. */
  heldUntil: number
}

/** Why the walk stopped: the remote's error as the pull reports it, or the worker's own fault (`bug`). */
export interface FetchFailure {
  kind: RemoteErrorKind | 'bug'
  status: number | null
}

/** Each request's attempt, counted on the pull's record. */
export interface AttemptMessage {
  type: 'attempt'
  attempt: RemoteAttempt
}

/** Caller → worker: a window taken, or "the pull was cancelled". */
export type ToFetchWorker = AckMessage | { type: 'cancel' }

/** Worker → caller. */
export type FromFetchWorker = FeedMessage<FetchedWindow, FetchFailure> | AttemptMessage
