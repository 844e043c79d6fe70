import { canonicalUuid } from '../../../src-shared/schemas/lax-uuid'
import { MAX_ID_LENGTH } from '../../../src-shared/schemas/params'
import type { NewCallLog } from '../../db/schema'
import { checkCallLog } from '../call-logs/call-log-record'
import { storeCallLogsJob } from '../call-logs/call-logs.write-jobs'
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

/**
 * Stores a window's records in one transaction (call-logs.write.repo storeCallLogs) and counts
 * them; what they made known (tenants, agents, squads) is returned for the later steps.
 */
async function storeWindow(run: PullRun, records: unknown[]): Promise<Map<string, string | null>> {
  // Stored last to first: lines that share a timestamp are listed newest insertion first (seq
  // desc), so this lists them in the remote's own order, whatever order it breaks ties in.
  const accepted = checkWindow(run, records).reverse()
  const stored = await run.writer.run(storeCallLogsJob, { origin: { pull_id: run.row.id, source: run.source }, rows: accepted.map((a) => a.row) })
  for (const isNew of stored) {
    if (isNew) run.counts.callLogs.inserted++
    else run.counts.callLogs.duplicates++
  }
  return new Map(accepted.flatMap((a) => a.known))
}

/** One page of GET /logs/calls, which must be an array. */
async function fetchWindow(run: PullRun, start: number, end: number): Promise<unknown[]> {
  const body = await run.client.getJson('/logs/calls', { start_date: iso(start), end_date: iso(end), limit: CALL_LOG_PAGE_LIMIT })
  if (!Array.isArray(body)) throw new RemoteError(`GET /logs/calls answered ${typeof body === 'object' ? (body === null ? 'null' : 'an object') : typeof body} where the interface returns an array of call logs`, 'garbage')
  return body
}

/**
 * Walks the pull's range in date windows, storing each window's records and registering the
 * tenants, agents and squads they name. The range already covered by earlier pulls (the
 * `call_logs:` cursor) is skipped but for an overlap; the cursor moves on after each window.
 */
export async function pullCallLogs(run: PullRun): Promise<void> {
  const { db, source, row, counts } = run
  const key = `call_logs:${run.tenantId ?? '*'}`
  const saved = await repo.getCursor(db, source, key)
  const cover = saved ? (JSON.parse(saved) as { from: string; to: string }) : null
  const sinceMs = Date.parse(row.since)
  // Coverage is contiguous from cover.from: when it already holds `since`, start near its end.
  const continues = cover !== null && Date.parse(cover.from) <= sinceMs && Date.parse(cover.to) >= sinceMs
  const from = continues ? Math.max(sinceMs, Date.parse(cover.to) - RESUME_OVERLAP_MS) : sinceMs
  const coverFrom = continues ? cover.from : row.since
  await walkCallLogWindows({
    from,
    to: Date.parse(row.until),
    limit: CALL_LOG_PAGE_LIMIT,
    fetchWindow: (start, end) => fetchWindow(run, start, end),
    onWindow: async (window) => {
      counts.callLogs.windows++
      counts.callLogs.fetched += window.records.length
      if (window.saturated) run.problem('call logs', `more than ${CALL_LOG_PAGE_LIMIT} records at ${iso(window.start)}: only ${CALL_LOG_PAGE_LIMIT} could be fetched`)
      const discovered = await storeWindow(run, window.records)
      const at = new Date().toISOString()
      await repo.addCursors(db, source, [...discovered].map(([k, tenant]) => ({ key: k, value: JSON.stringify({ tenantId: tenant, completedAt: null }) })), at)
      await repo.setCursor(db, source, key, JSON.stringify({ from: coverFrom, to: iso(window.end) }), at)
      await run.save()
    },
  })
}
