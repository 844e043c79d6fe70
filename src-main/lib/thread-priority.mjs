// Thread priorities of the service's worker threads. Plain JavaScript importing only Node, so that a
// worker's entry lowers its thread before it loads anything else (the reader's read-worker.mjs, the
// `*.source.mjs` entries before they register tsx, the parse worker's bundled entry).
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'

/**
 * Nice values below the main thread's 0, which goes first whenever it wants a core. Readers answer
 * the console's queries, so they stay close enough to run when other programs keep the cores busy;
 * the writer and an import's parser do bulk work in the background and give way to everything
 * (19: the weakest claim on a core; at 10 an import's two threads still delayed the main thread's
 * answers by up to 20–50 ms on a 2-core machine, bench/responsiveness.ts).
 */
export const READER_NICE = 10
export const BACKGROUND_NICE = 19

/**
 * Lowers the calling worker thread's scheduling priority, so that when every core is busy (an
 * import's parse and write threads on two cores) the thread that answers requests still runs at
 * once: the workers' throughput is unchanged while a core is free. Linux only, where the nice value
 * belongs to each thread and /proc/thread-self names it; elsewhere, and on the main thread, it does
 * nothing. Returns whether it did.
 */
export function lowerWorkerPriority(nice) {
  if (process.platform !== 'linux' || isMainThread) return false
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    setPriority(tid, nice)
    return true
  } catch {
    return false
  }
}
