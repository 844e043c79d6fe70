import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { isMainThread } from 'node:worker_threads'

/** The nice value database and parse threads run at: the main thread (0) goes first when both want a core. */
export const WORKER_NICE = 10

/**
 * Lowers the calling worker thread's scheduling priority, so that when every core is busy (an
 * import's parse and write threads on two cores) the thread that answers requests still runs at
 * once: the workers' throughput is unchanged while a core is free. Linux only, where the nice value
 * belongs to each thread and /proc/thread-self names it; elsewhere, and on the main thread, it does
 * nothing. Returns whether it did.
 */
export function lowerWorkerPriority(nice = WORKER_NICE): boolean {
  if (process.platform !== 'linux' || isMainThread) return false
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
    setPriority(tid, nice)
    return true
  } catch {
    return false
  }
}
