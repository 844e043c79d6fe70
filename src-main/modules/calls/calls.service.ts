import type { Kysely } from 'kysely'
import type { CallDetail } from '../../../src-shared/schemas/call-detail'
import { type CallList, type CallListQuery, decodeCallCursor, encodeCallCursor } from '../../../src-shared/schemas/call'
import type { Database } from '../../db/schema'
import { InvalidInputError } from '../../kit/errors'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import { getCallDetail } from './calls.detail'
import * as repo from './calls.repo'

/** A phone number as typed ("+1 (415) 555-01"), as stored: digits and a leading +. */
export const phonePrefix = (typed: string) => typed.replace(/[\s().-]/g, '')

const EMPTY: CallList = { calls: [], next_cursor: null, total: 0, by_status: [], by_end_reason: [] }

export function createCallsService(db: Kysely<Database>) {
  return {
    /**
     * Calls of a filter, a page at a time in the order asked, with how many match and the counts per
     * status and per end reason (each without its own field's filter). A tenant token sees its tenant's calls only.
     */
    async list(principal: Principal, query: CallListQuery): Promise<CallList> {
      if (query.tenant_id && !canSeeTenant(principal, query.tenant_id)) return EMPTY
      // The calls table holds Callscope's own calls only: a pulled backend has none listed here.
      const source = sourceScope(principal)
      if (source !== undefined && source !== '') return EMPTY
      const { sort, order, limit, cursor: cursorText, phone, ...rest } = query
      const cursor = cursorText ? decodeCallCursor(cursorText) : null
      // REST checks it in its query schema; the console's cursor travels beside the query.
      if (cursorText && (cursor === null || cursor.sort !== sort || cursor.order !== order)) throw new InvalidInputError('cursor: not a cursor of this list and order; start again from the first page')
      const filter: repo.CallFilter = { ...rest, tenant_id: tenantScope(principal) ?? rest.tenant_id, phonePrefix: phone ? phonePrefix(phone) : undefined }
      const [rows, counts] = await Promise.all([
        repo.callPage(db, filter, sort, order, limit, cursor),
        repo.callCounts(db, filter),
      ])
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      const num = (n: number | string | bigint) => Number(n)
      return {
        calls: page.map(({ sort_key: _key, ...call }) => call),
        next_cursor: rows.length > limit && last ? encodeCallCursor({ sort, order, key: last.sort_key, id: last.id }) : null,
        total: num(counts.total),
        by_status: counts.byStatus.map((r) => ({ status: r.status, count: num(r.count) })),
        by_end_reason: counts.byEndReason.map((r) => ({ end_reason: r.end_reason, count: num(r.count) })),
      }
    },

    /** One call's page (calls.detail.ts); "Call not found" for an id neither a row nor a line of a visible tenant has. */
    get: (principal: Principal, callId: string): Promise<CallDetail> => getCallDetail(db, principal, callId),
  }
}

export type CallsService = ReturnType<typeof createCallsService>
