import { canonicalUuid } from '../../../src-shared/schemas/lax-uuid'
import { MAX_ID_LENGTH } from '../../../src-shared/schemas/params'
import type { NewCallLog } from '../../db/schema'
import { callLogValues, packCallLogValues, type PackedCallLogValues } from '../call-logs/call-log-values'
import { checkCallLog } from '../call-logs/call-log-record'
import { CALL_LOG_PAGE_LIMIT, iso, walkCallLogWindows } from './call-log-windows'
import { type RemoteClient, RemoteError } from './remote-client'

/*
 * The call log walk's windows fetched and checked, ready to store: the work a pull does between
 * the remote's answer and the store, the same whether it runs on the pull's thread or on the
 * fetch worker (fetch-worker.ts). Plain data, so a window crosses threads as it is.
 */

/** A window's records checked, in the order to store them, with what they made known. */
export interface CheckedWindow<R> {
  /** Inclusive bounds, epoch milliseconds. */
  start: number
  end: number
  /** The window still held the record maximum at 1 ms wide: records beyond it could not be reached. */
  saturated: boolean
  /** Records the remote answered, valid or not. */
  fetched: number
  /**
   * The valid records of the pull's tenant, last to first: lines that share a timestamp are
   * listed newest insertion first (seq desc), so storing them in this order keeps the remote's
   * own order, whatever order it breaks ties in.
   */
  rows: R[]
  /** The records refused, in the answer's order: their id (or `#position`) and why. */
  refused: Array<{ id: string; reason: string }>
  /** Valid records of another tenant than the pull's, skipped. */
  otherTenants: number
  /** The steps the rows made known (cursor key → tenant), as a Map's entries. */
  known: Array<[string, string | null]>
}

/** Checks a window's records (checkCallLog), keeping those of `tenantId` when given. */
export function checkWindow(records: unknown[], tenantId: string | null): Omit<CheckedWindow<NewCallLog>, 'start' | 'end' | 'saturated'> {
  const refused: CheckedWindow<NewCallLog>['refused'] = []
  const accepted: Array<{ row: NewCallLog; known: Array<[string, string | null]> }> = []
  let otherTenants = 0
  for (const [index, value] of records.entries()) {
    const checked = checkCallLog(value)
    if ('reason' in checked) {
      const id = typeof value === 'object' && value !== null && 'id' in value ? String((value as { id: unknown }).id) : `#${index + 1}`
      refused.push({ id, reason: checked.reason })
      continue
    }
    const log = checked.row
    if (tenantId !== null && log.tenant_id !== tenantId) {
      otherTenants++
      continue
    }
    const known: Array<[string, string | null]> = [[`tenant:${log.tenant_id}`, log.tenant_id]]
    if (log.agent_id) known.push([`agent:${log.agent_id}`, log.tenant_id])
    // From the record as received: the row's details are already serialized for the store.
    const squad = (value as { details?: { squad_id?: unknown } }).details?.squad_id
    if (typeof squad === 'string' && squad.trim() && squad.length <= MAX_ID_LENGTH) known.push([`squad:${canonicalUuid(squad) ?? squad}`, log.tenant_id])
    accepted.push({ row: log, known })
  }
  accepted.reverse()
  return {
    fetched: records.length,
    rows: accepted.map((a) => a.row),
    refused,
    otherTenants,
    known: [...new Map(accepted.flatMap((a) => a.known))],
  }
}


/**
 * A window as the feed carries it: what the pull counts and notes as plain data, its rows as the
 * store's values packed (call-log-values.ts), which move on to the thread that stores them unopened.
 */
export type FetchedWindow = Omit<CheckedWindow<never>, 'rows'> & { rows: PackedCallLogValues }

/** A checked window as it goes on to be stored (fetch-protocol.ts): its rows packed as the store's values. */
export const packWindow = (window: CheckedWindow<NewCallLog>): FetchedWindow => ({ ...window, rows: packCallLogValues(window.rows.map(callLogValues)) })

/** One page of GET /logs/calls, which must be an array. */
async function fetchWindow(client: RemoteClient, start: number, end: number): Promise<unknown[]> {
  const body = await client.getJson('/logs/calls', { start_date: iso(start), end_date: iso(end), limit: CALL_LOG_PAGE_LIMIT })
  if (!Array.isArray(body)) throw new RemoteError(`GET /logs/calls answered ${typeof body === 'object' ? (body === null ? 'null' : 'an object') : typeof body} where the interface returns an array of call logs`, 'garbage')
  return body
}

/** What the walk covers and how far ahead it asks. */
export interface WalkRange {
  from: number
  to: number
  /** Windows asked for beyond the next one while a window is handed over (call-log-windows.ts). */
  ahead: number
}

/** Walks [from, to] (call-log-windows.ts), handing each window checked to `onWindow`, in time order. */
export function walkCheckedWindows(
  client: RemoteClient,
  range: WalkRange,
  tenantId: string | null,
  onWindow: (window: CheckedWindow<NewCallLog>) => Promise<void>,
): Promise<void> {
  return walkCallLogWindows({
    from: range.from,
    to: range.to,
    limit: CALL_LOG_PAGE_LIMIT,
    ahead: range.ahead,
    fetchWindow: (start, end) => fetchWindow(client, start, end),
    onWindow: ({ start, end, saturated, records }) => onWindow({ start, end, saturated, ...checkWindow(records, tenantId) }),
  })
}
