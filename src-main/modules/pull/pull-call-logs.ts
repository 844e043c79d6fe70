import { canonicalUuid } from '../../../src-shared/schemas/lax-uuid'
import { MAX_ID_LENGTH } from '../../../src-shared/schemas/params'
import type { NewCallLog } from '../../db/schema'
import { checkCallLog } from '../call-logs/call-log-record'
import { storeCallLogsJob } from '../call-logs/call-logs.write-jobs'
import { hasCallLogs } from '../call-logs/call-logs.write.repo'
import { beginPullBulkJob, endPullBulkJob, storePullBulkWindowJob } from './pull-call-logs.write-jobs'
import { CALL_LOG_PAGE_LIMIT, walkCallLogWindows } from './call-log-windows'
import { iso, type PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

/** A resumed call log walk starts this far before where the last one stopped: late lines land there. */
const RESUME_OVERLAP_MS = 5 * 60_000

/** A record of the window to store, with the steps it makes known (cursor key → tenant). */
interface Accepted {
  row: NewCallLog
  known: Array<[string, string | null]>
}

/** The window's records checked: the invalid ones counted and noted, other tenants' skipped. */
function checkWindow(run: PullRun, records: unknown[]): Accepted[] {
  const { counts } = run
  const accepted: Accepted[] = []
  for (const [index, value] of records.entries()) {
    const checked = checkCallLog(value)
    if ('reason' in checked) {
      counts.callLogs.invalid++
      const id = typeof value === 'object' && value !== null && 'id' in value ? String((value as { id: unknown }).id) : `#${index + 1}`
      run.problem('call logs', `record ${id.slice(0, 60)} not stored: ${checked.reason}`)
      continue
    }
    const log = checked.row
    if (run.tenantId !== null && log.tenant_id !== run.tenantId) {
      counts.callLogs.otherTenants++
      continue
    }
    const known: Accepted['known'] = [[`tenant:${log.tenant_id}`, log.tenant_id]]
    if (log.agent_id) known.push([`agent:${log.agent_id}`, log.tenant_id])
    // From the record as received: the row's details are already serialized for the store.
    const squad = (value as { details?: { squad_id?: unknown } }).details?.squad_id
    if (typeof squad === 'string' && squad.trim() && squad.length <= MAX_ID_LENGTH) known.push([`squad:${canonicalUuid(squad) ?? squad}`, log.tenant_id])
    accepted.push({ row: log, known })
  }
  return accepted
}

/** Counts what a store of the window's rows answered: new, or already stored. */
function countStored(run: PullRun, stored: boolean[]): void {
  for (const isNew of stored) {
    if (isNew) run.counts.callLogs.inserted++
    else run.counts.callLogs.duplicates++
  }
}

/**
 * The window's records checked and in the order to store them: last to first. Lines that share a
 * timestamp are listed newest insertion first (seq desc), so this lists them in the remote's own
 * order, whatever order it breaks ties in. With what they made known (tenants, agents, squads).
 */
function windowRows(run: PullRun, records: unknown[]): { rows: NewCallLog[]; discovered: Map<string, string | null> } {
  const accepted = checkWindow(run, records).reverse()
  return { rows: accepted.map((a) => a.row), discovered: new Map(accepted.flatMap((a) => a.known)) }
}

/** One page of GET /logs/calls, which must be an array. */
async function fetchWindow(run: PullRun, start: number, end: number): Promise<unknown[]> {
  const body = await run.client.getJson('/logs/calls', { start_date: iso(start), end_date: iso(end), limit: CALL_LOG_PAGE_LIMIT })
  if (!Array.isArray(body)) throw new RemoteError(`GET /logs/calls answered ${typeof body === 'object' ? (body === null ? 'null' : 'an object') : typeof body} where the interface returns an array of call logs`, 'garbage')
  return body
}

/** Where the walk starts and what the `call_logs:` cursor records as covered: from the saved cover on, when it holds `since`. */
interface Walk {
  key: string
  from: number
  coverFrom: string
}

/** The cursor values a stored window makes true: the steps it made known, and the range covered up to its end. */
function windowCursors(run: PullRun, walk: Walk, end: number, discovered: Map<string, string | null>) {
  return {
    known: [...discovered].map(([k, tenant]) => ({ key: k, value: JSON.stringify({ tenantId: tenant, completedAt: null }) })),
    cover: { key: walk.key, value: JSON.stringify({ from: walk.coverFrom, to: iso(end) }) },
  }
}

/**
 * Windows answered ahead of the one being stored. One more than the next keeps the remote busy
 * while this process checks and stores a window (docs/benchmarks.md, "Pull and sync").
 */
const WINDOWS_AHEAD = 1

/** Walks the pull's windows, handing each one's checked rows to `store` in time order. */
function walkWindows(run: PullRun, walk: Walk, store: (end: number, rows: NewCallLog[], discovered: Map<string, string | null>) => Promise<void>): Promise<void> {
  const { counts } = run
  return walkCallLogWindows({
    from: walk.from,
    to: Date.parse(run.row.until),
    limit: CALL_LOG_PAGE_LIMIT,
    ahead: WINDOWS_AHEAD,
    fetchWindow: (start, end) => fetchWindow(run, start, end),
    onWindow: async (window) => {
      counts.callLogs.windows++
      counts.callLogs.fetched += window.records.length
      if (window.saturated) run.problem('call logs', `more than ${CALL_LOG_PAGE_LIMIT} records at ${iso(window.start)}: only ${CALL_LOG_PAGE_LIMIT} could be fetched`)
      const { rows, discovered } = windowRows(run, window.records)
      await store(window.end, rows, discovered)
    },
  })
}

/**
 * Each window stored in one transaction (call-logs.write.repo storeCallLogs) with every index
 * live, then its cursors and the pull's progress.
 */
function walkWindowByWindow(run: PullRun, walk: Walk): Promise<void> {
  const { db, source } = run
  return walkWindows(run, walk, async (end, rows, discovered) => {
    countStored(run, await run.writer.run(storeCallLogsJob, { origin: { pull_id: run.row.id, source }, rows }))
    const at = new Date().toISOString()
    const { known, cover } = windowCursors(run, walk, end, discovered)
    await repo.addCursors(db, source, known, at)
    await repo.setCursor(db, source, cover.key, cover.value, at)
    await run.save()
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
    try {
      await walkWindows(run, walk, async (end, rows, discovered) => {
        const progress = run.progress()
        countStored(run, await job(storePullBulkWindowJob, { pullId, source, rows, ...windowCursors(run, walk, end, discovered), progress, at: progress.updated_at }))
        run.recorded(run.progress())
      })
    } catch (error) {
      failed = !(error instanceof RemoteError)
      throw error
    } finally {
      await job(endPullBulkJob, { pullId, failed })
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
