import { hasCallLogs } from '../call-logs/call-logs.write.repo'
import { CALL_LOG_PAGE_LIMIT } from './call-log-windows'
import { type CheckedWindow, packWindow, walkCheckedWindows, type WalkRange } from './checked-windows'
import type { FetchedWindow } from './checked-windows'
import { beginPullBulkJob, endPullBulkJob, storePullBulkWindowJob, storePullWindowJob } from './pull-call-logs.write-jobs'
import { iso, type PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { fetchWorkerEntry, windowsInWorker } from './windows-in-worker'

/** A resumed call log walk starts this far before where the last one stopped: late lines land there. */
const RESUME_OVERLAP_MS = 5 * 60_000

/** Counts a window and notes its problems, as the pull's report shows them. */
function noteWindow(run: PullRun, window: Omit<CheckedWindow<unknown>, 'rows'>): void {
  const { counts } = run
  counts.callLogs.windows++
  counts.callLogs.fetched += window.fetched
  if (window.saturated) run.problem('call logs', `more than ${CALL_LOG_PAGE_LIMIT} records at ${iso(window.start)}: only ${CALL_LOG_PAGE_LIMIT} could be fetched`)
  for (const { id, reason } of window.refused) {
    counts.callLogs.invalid++
    run.problem('call logs', `record ${id.slice(0, 60)} not stored: ${reason}`)
  }
  counts.callLogs.otherTenants += window.otherTenants
}

/** Counts what a store of the window's rows answered: new, or already stored. */
function countStored(run: PullRun, stored: boolean[]): void {
  for (const isNew of stored) {
    if (isNew) run.counts.callLogs.inserted++
    else run.counts.callLogs.duplicates++
  }
}

/** Where the walk starts and what the `call_logs:` cursor records as covered: from the saved cover on, when it holds `since`. */
interface Walk {
  key: string
  from: number
  coverFrom: string
}

/** The cursor values a stored window makes true: the steps it made known, and the range covered up to its end. */
function windowCursors(walk: Walk, end: number, discovered: CheckedWindow<unknown>['known']) {
  return {
    known: discovered.map(([k, tenant]) => ({ key: k, value: JSON.stringify({ tenantId: tenant, completedAt: null }) })),
    cover: { key: walk.key, value: JSON.stringify({ from: walk.coverFrom, to: iso(end) }) },
  }
}

/**
 * Windows answered ahead of the one being handed over. One more than the next keeps the remote
 * busy while a window is checked and stored (docs/benchmarks.md, "Pull and sync").
 */
const WINDOWS_AHEAD = 1

const walkRange = (run: PullRun, walk: Walk): WalkRange => ({ from: walk.from, to: Date.parse(run.row.until), ahead: WINDOWS_AHEAD })

/**
 * The pull's windows, checked and packed, to `store` in time order: fetched, decoded and checked on
 * the fetch worker (windows-in-worker.ts) while the windows before are stored, so none of that
 * work is on the pull's thread (in the app, the thread answering requests); or on this thread when
 * the worker's code is not there (an unusual bundle).
 */
async function eachWindow(run: PullRun, walk: Walk, store: (window: FetchedWindow) => Promise<void>): Promise<void> {
  const range = walkRange(run, walk)
  const entry = run.options.fetchWorker === undefined ? fetchWorkerEntry() : run.options.fetchWorker
  if (!entry) {
    return walkCheckedWindows(run.client, range, run.tenantId, async (window) => {
      noteWindow(run, window)
      await store(packWindow(window))
    })
  }
  const windows = windowsInWorker({ client: run.clientOptions, range, tenantId: run.tenantId, heldUntil: run.client.heldUntil(), onAttempt: run.attempted, signal: run.signal, entry })
  try {
    for await (const window of windows) {
      noteWindow(run, window)
      await store(window)
    }
  } finally {
    // The pull's own client asks next: no sooner than the rate allows after the worker's last request.
    run.client.followOther()
  }
}

/**
 * Each window stored with every index live, in one transaction with its cursors and the pull's
 * progress (storePullWindowJob): a pull killed at any point leaves a record and a cursor true to
 * its rows.
 */
function walkWindowByWindow(run: PullRun, walk: Walk): Promise<void> {
  const { source } = run
  return eachWindow(run, walk, async (window) => {
    const progress = run.progress()
    const records = { pullId: run.row.id, source, rows: window.rows, ...windowCursors(walk, window.end, window.known), progress, at: progress.updated_at }
    countStored(run, await run.writer.run(storePullWindowJob, records))
    run.recorded(run.progress())
  })
}

/**
 * The windows loaded in bulk (pull-call-logs.write-jobs.ts): the writing connection held from the
 * load's start to its end, each window's rows, cursors and progress written by one job, indexes
 * built once at the end. Whatever stops the walk, what was stored is kept and indexed; only a
 * store that failed loses the rows since the last checkpoint (their cursor with them). False when
 * another load was under way: nothing was done.
 */
function walkInBulk(run: PullRun, walk: Walk): Promise<boolean> {
  const { source } = run
  const pullId = run.row.id
  return run.writer.exclusive(async (job) => {
    if (!(await job(beginPullBulkJob, { pullId, source }))) return false
    let failed = false
    // The call log counts as of the last commit: a store that fails rolls back to it, counts too.
    let committed = { ...run.counts.callLogs }
    try {
      await eachWindow(run, walk, async (window) => {
        const progress = run.progress()
        const bulkWindow = { pullId, source, rows: window.rows, ...windowCursors(walk, window.end, window.known), progress, at: progress.updated_at }
        const { stored, checkpointed } = await job(storePullBulkWindowJob, bulkWindow).catch((error: unknown) => {
          failed = true
          Object.assign(run.counts.callLogs, committed)
          throw error
        })
        countStored(run, stored)
        if (checkpointed) committed = { ...run.counts.callLogs }
        run.recorded(run.progress())
      })
    } finally {
      // Ending rebuilds the indexes and commits: on a full disk that may fail too, and then only
      // what the last checkpoint committed stays.
      await job(endPullBulkJob, { pullId, failed }).catch((error: unknown) => {
        Object.assign(run.counts.callLogs, committed)
        throw error
      })
    }
    return true
  })
}

/**
 * Walks the pull's range in date windows, storing each window's records and registering the
 * tenants, agents and squads they name. The range already covered by earlier pulls (the
 * `call_logs:` cursor) is skipped but for an overlap; the cursor moves on after each window.
 * A first pull into a store with no call log loads in bulk when asked (PullOptions.bulk).
 */
export async function pullCallLogs(run: PullRun): Promise<void> {
  const { db, source, row } = run
  const key = `call_logs:${run.tenantId ?? '*'}`
  const saved = await repo.getCursor(db, source, key)
  const cover = saved ? (JSON.parse(saved) as { from: string; to: string }) : null
  const sinceMs = Date.parse(row.since)
  // Coverage is contiguous from cover.from: when it already holds `since`, start near its end.
  const continues = cover !== null && Date.parse(cover.from) <= sinceMs && Date.parse(cover.to) >= sinceMs
  const walk: Walk = {
    key,
    from: continues ? Math.max(sinceMs, Date.parse(cover.to) - RESUME_OVERLAP_MS) : sinceMs,
    coverFrom: continues ? cover.from : row.since,
  }
  if (run.options.bulk === 'auto' && !(await hasCallLogs(db)) && (await walkInBulk(run, walk))) {
    await run.save()
    return
  }
  await walkWindowByWindow(run, walk)
}
