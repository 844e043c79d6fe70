/**
 * Tells waiters when the store holds lines beyond a seq. One poll of `max(seq)` serves every
 * follower of a service, and it runs only while someone waits. Polling rather than hooks from the
 * writer, because anything may write the file: the app's writer, `callscope import` in another
 * process, a pull's sync. A poll every quarter second keeps new lines within the 1 s the live tail
 * promises, at the price of one index lookup per tick.
 */
export interface StoreWatch {
  /** Resolves with the highest seq once it differs from `known` (a store emptied or replaced counts too); rejects when aborted. */
  changedFrom(known: number, signal: AbortSignal): Promise<number>
  /** Followers waiting right now: 0 once every tail has stopped (a leak shows here). */
  waiting(): number
  close(): void
}

/** Followers' waits end with this when the service closes its store. */
export class StoreClosedError extends Error {
  constructor() {
    super('The store was closed')
    this.name = 'StoreClosedError'
  }
}

export function createStoreWatch(readMaxSeq: () => Promise<number>, intervalMs = 250): StoreWatch {
  const waiters = new Set<{ known: number; resolve: (max: number) => void; reject: (reason: unknown) => void }>()
  let timer: NodeJS.Timeout | null = null
  let closed = false

  async function tick() {
    timer = null
    if (waiters.size === 0 || closed) return
    try {
      const max = await readMaxSeq()
      for (const w of [...waiters]) {
        if (max !== w.known) {
          waiters.delete(w)
          w.resolve(max)
        }
      }
    } catch {
      // The read pool is closing or the file went away: waiters stay, and end with their signals.
    }
    schedule()
  }

  function schedule() {
    if (timer === null && waiters.size > 0 && !closed) {
      // Not unref'd: a follower (`callscope tail`) is a reason for the process to stay.
      timer = setTimeout(() => void tick(), intervalMs)
    }
  }

  return {
    changedFrom(known, signal) {
      return new Promise((resolve, reject) => {
        if (closed) return reject(new StoreClosedError())
        if (signal.aborted) return reject(signal.reason)
        const waiter = {
          known,
          resolve: (max: number) => {
            signal.removeEventListener('abort', onAbort)
            resolve(max)
          },
          reject: (reason: unknown) => {
            signal.removeEventListener('abort', onAbort)
            reject(reason)
          },
        }
        const onAbort = () => {
          waiters.delete(waiter)
          reject(signal.reason)
        }
        signal.addEventListener('abort', onAbort, { once: true })
        waiters.add(waiter)
        schedule()
      })
    },
    waiting: () => waiters.size,
    close() {
      closed = true
      if (timer) clearTimeout(timer)
      timer = null
      // Followers end instead of waiting for a store that is gone.
      for (const w of waiters) w.reject(new StoreClosedError())
      waiters.clear()
    },
  }
}
