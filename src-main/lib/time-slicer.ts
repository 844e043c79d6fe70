/**
 * Lets long read work on the one database connection share the process with other requests.
 * better-sqlite3 runs each query synchronously, so a many-query aggregate (facets, a histogram)
 * would hold the event loop until it is done, and the table rows a user is waiting for would queue
 * behind it. `tick()` between queries gives the event loop a turn (setImmediate: after pending
 * I/O) once `budgetMs` of work has passed, and stops the work when the caller aborted: a request
 * the console superseded with a newer filter is not worth finishing.
 */
export interface TimeSlicer {
  tick(): Promise<void>
}

export interface TimeSlicerOptions {
  /** Work between two turns of the event loop, in ms. */
  budgetMs?: number
  /** Aborts the work at the next tick (the request's signal). */
  signal?: AbortSignal
}

export function createTimeSlicer({ budgetMs = 8, signal }: TimeSlicerOptions = {}): TimeSlicer {
  let sliceStart = performance.now()
  return {
    async tick() {
      signal?.throwIfAborted()
      if (performance.now() - sliceStart < budgetMs) return
      await new Promise<void>((resolve) => setImmediate(resolve))
      signal?.throwIfAborted()
      sliceStart = performance.now()
    },
  }
}
