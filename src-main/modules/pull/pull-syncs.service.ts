import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { Database, PullSyncState } from '../../db/schema'
import { storeFaultKind } from '../../../src-shared/store-faults'
import { InvalidInputError, NotFoundError } from '../../kit/errors'
import { isOrphanedRun } from '../../lib/process-alive'
import type { PullReport } from './pull-report'
import type { PullOptions } from './pull-run'
import * as repo from './pull-syncs.repo'
import { type PullsService, resolveSince, unrecordedPull } from './pulls.service'
import { normalizeBaseUrl } from './remote-client'
import { backoffDelay } from './retry-policy'

/** Between two cycles, by default. */
export const DEFAULT_SYNC_INTERVAL_MS = 30_000
export const MIN_SYNC_INTERVAL_MS = 1_000
export const MAX_SYNC_INTERVAL_MS = 24 * 3_600_000
/** After failed cycles: the interval doubling from itself, jittered, up to this. */
export const MAX_SYNC_BACKOFF_MS = 5 * 60_000
/** Every this many cycles (and on the first) each agent's sessions listing is walked whole, not only checked. */
export const FULL_SESSIONS_EVERY = 20
/** A cycle's requests are retried fewer times than a one-off pull's: the sync's own backoff takes over. */
const CYCLE_RETRIES = 2

export interface SyncOptions extends Omit<PullOptions, 'onProgress' | 'sync' | 'quickSessions'> {
  intervalMs?: number
}

export interface SyncReport {
  source: string
  tenantId: string | null
  since: string
  intervalMs: number
  state: PullSyncState
  /** Whether this process runs it (a sync of another process, or of a Callscope that stopped, does not). */
  running: boolean
  startedAt: string
  updatedAt: string
  lastCycleAt: string | null
  lastSuccessAt: string | null
  nextCycleAt: string | null
  cycles: number
  failures: number
  lastError: string | null
  lastPullId: string | null
}

export interface SyncHooks {
  /** After each cycle, with its pull's report and the sync as it stands. */
  onCycle?: (pull: PullReport, sync: SyncReport) => void
}

const toReport = (row: repo.SyncRow, running: boolean): SyncReport => ({
  source: row.source,
  tenantId: row.tenant_id,
  since: row.since,
  intervalMs: row.interval_ms,
  state: row.state,
  running,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  lastCycleAt: row.last_cycle_at,
  lastSuccessAt: row.last_success_at,
  nextCycleAt: row.next_cycle_at,
  cycles: row.cycles,
  failures: row.failures,
  lastError: row.last_error,
  lastPullId: row.last_pull_id,
})

const STOPPED_ELSEWHERE = 'Callscope stopped while this sync ran; switch it on again (the token is not stored)'

/**
 * Continuous sync: a source pulled again and again, each cycle a pull that fetches only what is new
 * (pulls.service: the call logs from where the last cycle ended, less an overlap for late lines,
 * known ids skipped; each agent's listing checked by its first page), with a pause between
 * cycles. A failed cycle is retried with backoff and the next one resumes where it stopped; a
 * refused token or a damaged store stops the sync (retrying cannot help). One sync per source per process.
 */
export function createPullSyncsService(db: Kysely<Database>, pulls: PullsService) {
  const running = new Map<string, { controller: AbortController; done: Promise<SyncReport> }>()

  async function reconcile(): Promise<void> {
    for (const r of await repo.activeSyncs(db)) {
      if (!running.has(r.source) && (r.pid === process.pid || isOrphanedRun(r.pid))) {
        await repo.updateSync(db, r.source, { state: 'stopped', next_cycle_at: null, last_error: STOPPED_ELSEWHERE, updated_at: new Date().toISOString() })
      }
    }
  }

  function checkOptions(options: SyncOptions): { source: string; intervalMs: number } {
    let source: string
    try {
      source = normalizeBaseUrl(options.baseUrl)
    } catch (error) {
      throw new InvalidInputError((error as Error).message)
    }
    const intervalMs = options.intervalMs ?? DEFAULT_SYNC_INTERVAL_MS
    if (!(intervalMs >= MIN_SYNC_INTERVAL_MS && intervalMs <= MAX_SYNC_INTERVAL_MS)) {
      throw new InvalidInputError(`the interval must be between ${MIN_SYNC_INTERVAL_MS / 1000} s and ${MAX_SYNC_INTERVAL_MS / 3_600_000} h`)
    }
    if (running.has(source)) throw new InvalidInputError(`${source} is already being kept in sync; stop it first`)
    return { source, intervalMs }
  }

  async function loop(row: repo.SyncRow, options: SyncOptions, signal: AbortSignal, hooks: SyncHooks): Promise<SyncReport> {
    const set = async (fields: Partial<repo.SyncRow>) => {
      Object.assign(row, fields, { updated_at: new Date().toISOString() })
      try {
        // The whole row, not only `fields`: what a full disk refused is carried by the next write.
        await repo.putSync(db, row)
      } catch (error) {
        // A full disk refuses the sync's own record too; the sync goes on (its cycles say why they
        // fail) and is recorded again once a write gets through. Anything else ends it.
        if (storeFaultKind(error) !== 'full') throw error
      }
    }
    for (let cycle = 0; !signal.aborted; cycle++) {
      await set({ state: 'pulling', last_cycle_at: new Date().toISOString(), next_cycle_at: null })
      const pullOptions = { ...options, since: row.since, retries: options.retries ?? CYCLE_RETRIES, sync: true, quickSessions: cycle % FULL_SESSIONS_EVERY !== 0 }
      let report: PullReport
      try {
        const pull = await pulls.begin(pullOptions)
        const cancel = () => void pulls.cancel(pull.id)
        signal.addEventListener('abort', cancel, { once: true })
        report = await pull.done
        signal.removeEventListener('abort', cancel)
      } catch (error) {
        // A cycle the disk would not even let start is a failed cycle, retried; anything else ends the sync.
        if (storeFaultKind(error) !== 'full') {
          await set({ state: 'failed', last_error: (error as Error).message })
          break
        }
        report = unrecordedPull(pullOptions, error)
      }
      if (report.status === 'cancelled' && signal.aborted) {
        await set({ last_pull_id: report.id })
        break
      }
      const ok = report.status === 'completed'
      const failures = ok ? 0 : row.failures + 1
      await set({
        cycles: row.cycles + 1,
        failures,
        last_pull_id: report.id,
        last_success_at: ok ? report.finishedAt : row.last_success_at,
        last_error: ok ? null : report.failure,
      })
      // Retrying cannot help a refused token, nor a damaged store (a damaged page does not heal;
      // every cycle would meet it again): the sync stops and says why. A full disk is retried.
      if (report.failureKind === 'auth' || report.failureKind === 'damaged') {
        await set({ state: 'failed' })
        hooks.onCycle?.(report, toReport(row, true))
        break
      }
      const waitMs = ok ? row.interval_ms : backoffDelay(failures - 1, null, { baseMs: row.interval_ms, maxMs: Math.max(row.interval_ms, MAX_SYNC_BACKOFF_MS) })
      await set({ state: ok ? 'waiting' : 'retrying', next_cycle_at: new Date(Date.now() + waitMs).toISOString() })
      hooks.onCycle?.(report, toReport(row, true))
      try {
        await sleep(waitMs, undefined, { signal })
      } catch {
        break
      }
    }
    if (row.state !== 'failed') await set({ state: 'stopped', next_cycle_at: null })
    return toReport(row, false)
  }

  /** Records the sync and starts its loop; `done` settles when it stops (switched off, or failed for good). */
  async function begin(options: SyncOptions, hooks: SyncHooks = {}): Promise<{ source: string; done: Promise<SyncReport> }> {
    const { source, intervalMs } = checkOptions(options)
    // The pull's own checks (token, tenant, since), before anything is recorded.
    const since = resolveSince(options.since)
    const now = new Date().toISOString()
    const row: repo.SyncRow = {
      source, tenant_id: options.tenantId?.toLowerCase() ?? null, since, interval_ms: intervalMs, state: 'pulling', pid: process.pid,
      started_at: now, updated_at: now, last_cycle_at: null, last_success_at: null, next_cycle_at: null, cycles: 0, failures: 0, last_error: null, last_pull_id: null,
    }
    if (!options.token.trim()) throw new InvalidInputError('a token is needed to pull')
    await repo.putSync(db, row).catch((error: unknown) => {
      // On a full disk the sync starts all the same: its first cycle says why it cannot store, and
      // its record is written by the first update that fits (the loop's `set`).
      if (storeFaultKind(error) !== 'full') throw error
    })
    const controller = new AbortController()
    const done = loop(row, options, controller.signal, hooks).finally(() => running.delete(source))
    running.set(source, { controller, done })
    return { source, done }
  }

  return {
    begin,

    /** Starts a sync in the background (the console's "Keep in sync"); its state is in list(). */
    async start(options: SyncOptions): Promise<SyncReport> {
      const { source, done } = await begin(options)
      done.catch(() => {})
      return toReport((await repo.findSync(db, source))!, true)
    },

    /** Switches a source's sync off: the cycle under way is cancelled (what it stored stays). */
    async stop(baseUrl: string): Promise<SyncReport> {
      const source = normalizeBaseUrl(baseUrl)
      const sync = running.get(source)
      if (sync) {
        sync.controller.abort()
        return sync.done
      }
      await reconcile()
      const row = await repo.findSync(db, source)
      if (!row) throw new NotFoundError('Sync')
      return toReport(row, false)
    },

    /** Every source ever synced, with its state; those this process no longer runs read as stopped. */
    async list(): Promise<SyncReport[]> {
      await reconcile()
      return (await repo.listSyncs(db)).map((r) => toReport(r, running.has(r.source)))
    },

    /** Stops every sync of this process and waits for each to record it (before the store closes). */
    async stopAll(): Promise<void> {
      const syncs = [...running.values()]
      for (const s of syncs) s.controller.abort()
      await Promise.allSettled(syncs.map((s) => s.done))
    },
  }
}

export type PullSyncsService = ReturnType<typeof createPullSyncsService>
