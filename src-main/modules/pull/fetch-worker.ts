import { parentPort, workerData } from 'node:worker_threads'
import { feedPoster, movableBuffers } from '../../lib/worker-feed'
import type { NewCallLog } from '../../db/schema'
import { type CheckedWindow, type FetchedWindow, packWindow, walkCheckedWindows } from './checked-windows'
import type { AttemptMessage, FetchFailure, FetchWorkerData, ToFetchWorker } from './fetch-protocol'
import { createRemoteClient, RemoteError } from './remote-client'

/**
 * Worker entry: walks the pull's call log windows (checked-windows.ts) with a remote client of
 * its own, under the pull's rate limit, retries and backoff, and posts each window checked, its
 * rows as the store's values, to the pull's thread (windows-in-worker.ts), at most
 * MAX_WINDOWS_AHEAD ahead of the store. Fetching, decoding and checking then cost the thread that
 * stores nothing.
 */
const { client: clientOptions, range, tenantId, heldUntil } = workerData as FetchWorkerData
const port = parentPort!

/**
 * Windows answered and checked, not yet stored: about 0.6 MiB each at a full page, and enough to
 * ride out a commit or a checkpoint's full-text indexing on the storing thread.
 */
const MAX_WINDOWS_AHEAD = 16

const cancel = new AbortController()
port.on('message', (message: ToFetchWorker) => {
  if (message.type === 'cancel') cancel.abort()
})
const feed = feedPoster<CheckedWindow<NewCallLog>, FetchedWindow, FetchFailure>(port, {
  maxAhead: MAX_WINDOWS_AHEAD,
  pack: packWindow,
  movable: ({ rows }) => movableBuffers(rows.packed),
})
const client = createRemoteClient({
  ...clientOptions,
  signal: cancel.signal,
  onAttempt: (attempt) => port.postMessage({ type: 'attempt', attempt } satisfies AttemptMessage),
})
// The pull's own client asked before this one starts: a turn of the rate after it, and its Retry-After hold.
client.followOther()
client.holdUntil(heldUntil)

try {
  await walkCheckedWindows(client, range, tenantId, (window) => feed.send(window))
  feed.done()
} catch (error) {
  feed.fail(error instanceof RemoteError ? { message: error.message, kind: error.kind, status: error.status } : { message: (error as Error).message, kind: 'bug', status: null })
}
port.close()
