import { Worker } from 'node:worker_threads'
import { readFeed, workerEntry } from '../../lib/worker-feed'
import type { FetchedWindow } from './checked-windows'
import type { AttemptMessage, FetchFailure, FetchWorkerData } from './fetch-protocol'
import { cancelledError, RemoteError } from './remote-client'

/** The fetch worker stopped without a remote's error: it crashed, ran out of memory or hit a bug. */
export class FetchStoppedError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FetchStoppedError'
  }
}

/** Where the fetch worker's code is (lib/worker-feed.ts workerEntry); null in a bundle without it. */
export const fetchWorkerEntry = (): URL | null => workerEntry(import.meta.url, 'fetch-worker')

export interface WindowsInWorkerOptions extends FetchWorkerData {
  /** Told of each request's attempt, in order, before the window it answered. */
  onAttempt: (attempt: AttemptMessage['attempt']) => void
  /** The pull's: aborting it stops the worker's requests and the windows. */
  signal: AbortSignal
  /** The worker's script, when not the default one (tests give one that fails). */
  entry: URL
}

/**
 * The pull's call log windows fetched and checked on a worker thread (fetch-worker.ts), in time
 * order, while the caller stores the ones before. Throws the remote's error as a RemoteError (so
 * the pull reports it as it would from its own thread), a cancelled one once the signal is
 * aborted (no window is handed over after that), and FetchStoppedError when the worker dies.
 */
export async function* windowsInWorker(options: WindowsInWorkerOptions): AsyncGenerator<FetchedWindow> {
  const { onAttempt, signal, entry, ...data } = options
  if (signal.aborted) throw cancelledError()
  const worker = new Worker(entry, {
    workerData: data satisfies FetchWorkerData,
    // JSON.parse and the checks allocate fast and keep little (as an import's parser: parse-in-worker.ts).
    resourceLimits: { maxYoungGenerationSizeMb: 96 },
  })
  const cancel = () => worker.postMessage({ type: 'cancel' })
  signal.addEventListener('abort', cancel, { once: true })
  const windows = readFeed<FetchedWindow, FetchFailure, AttemptMessage>(worker, {
    failure: (m) => (m.kind === 'bug' ? new FetchStoppedError(`the thread fetching the call logs failed: ${m.message}`) : new RemoteError(m.message, m.kind, m.status)),
    stopped: (code) => new FetchStoppedError(`the thread fetching the call logs stopped (exit code ${code})`),
    other: (m) => onAttempt(m.attempt),
  })
  try {
    for await (const window of windows) {
      if (signal.aborted) throw cancelledError()
      yield window
    }
  } finally {
    signal.removeEventListener('abort', cancel)
    await windows.return(undefined)
  }
}
