import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { storeFaultKind } from '../../../src-shared/store-faults'
import { NotFoundError } from '../../kit/errors'
import { isOrphanedRun } from '../../lib/process-alive'
import * as repo from './runs.repo'
import type { RunRow, RunTable } from './runs.repo'

/** What a run's reader asks of its history: the newest runs, one run, each as the caller reports it. */
export interface RunLifecycle<R> {
  /** Marks runs left "running" by a process that is gone as interrupted (killed, crashed). */
  reconcile(): Promise<void>
  /** The newest runs first, after reconcile. */
  list(limit: number): Promise<R[]>
  /** One run, after reconcile; NotFoundError when there is none with this id. */
  get(id: string): Promise<R>
  /** One run as stored, without reconciling; NotFoundError when there is none with this id. */
  find(id: string): Promise<R>
  /**
   * A run's end the store could not take (its disk full): shown as the run's record from now on,
   * and written when the store takes writes again, so the history never says "running" of a run
   * that ended.
   */
  endedUnrecorded(id: string, end: Partial<RunRow<RunTable>>): void
}

/**
 * The lifecycle imports and pulls share: a run is recorded as running with its process id, and a
 * run whose process is gone when its history is read was interrupted. `what` names the run in
 * errors ("Import not found"); `toReport` turns a row into what the service returns.
 */
export function createRunLifecycle<T extends RunTable, R>(
  db: Kysely<Database>,
  table: T,
  what: string,
  toReport: (row: RunRow<T>) => R,
): RunLifecycle<R> {
  const unrecorded = new Map<string, Partial<RunRow<T>>>()
  const shown = (row: RunRow<T>): R => toReport({ ...row, ...unrecorded.get((row as { id: string }).id) })

  /**
   * Writes the ends kept in memory, then marks the runs of processes that are gone. Reading the
   * history must work on a full disk too: what cannot be written now waits for the next read.
   */
  async function reconcile(): Promise<void> {
    try {
      for (const [id, end] of unrecorded) {
        await repo.updateRun(db, table, id, end)
        unrecorded.delete(id)
      }
      const dead = (await repo.runningRuns(db, table)).filter((r) => isOrphanedRun(r.pid) && !unrecorded.has(r.id))
      if (dead.length) await repo.markInterrupted(db, table, dead.map((r) => r.id), new Date().toISOString())
    } catch (error) {
      if (storeFaultKind(error) !== 'full') throw error
    }
  }

  async function find(id: string): Promise<R> {
    const row = await repo.findRun(db, table, id)
    if (!row) throw new NotFoundError(what)
    return shown(row)
  }

  return {
    reconcile,
    find,
    endedUnrecorded(id, end) {
      unrecorded.set(id, end as Partial<RunRow<T>>)
    },
    async list(limit) {
      await reconcile()
      return (await repo.listRuns(db, table, limit)).map(shown)
    },
    async get(id) {
      await reconcile()
      return find(id)
    },
  }
}
