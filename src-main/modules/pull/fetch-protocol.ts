import type { AckMessage, FeedMessage, Packed } from '../../lib/worker-feed'
import type { CallLogValues } from '../call-logs/call-log-values'
import type { CheckedWindow, WalkRange } from './checked-windows'
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
}

/** A window as the feed carries it: its rows as the store's positional values (call-log-values.ts). */
export type FetchedWindow = CheckedWindow<CallLogValues>

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
export type FromFetchWorker = FeedMessage<Packed, FetchFailure> | AttemptMessage
