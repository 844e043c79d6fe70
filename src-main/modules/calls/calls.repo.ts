import { type ExpressionBuilder, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely'
import type { CallCursor, CallListQuery } from '../../../src-shared/schemas/call'
import type { Database } from '../../db/schema'

type CallsQuery = SelectQueryBuilder<Database, 'calls', object>

/** The filter of a list, as the service resolved it (the principal's tenant applied). */
export type CallFilter = Omit<CallListQuery, 'sort' | 'order' | 'limit' | 'cursor' | 'phone'> & { phonePrefix?: string }

/** A sort's key: a column, or for durations one that has no nulls (an unfinished call sorts as -1). */
export function sortKey(sort: CallCursor['sort']): RawBuilder<string | number> {
  return sort === 'duration_ms' ? sql<number>`coalesce(duration_ms, -1)` : sql<string>`${sql.ref(sort)}`
}

/** Every filter the list offers; each has an index (migrations 0001 and 0012; checked by EXPLAIN in the tests). */
function filtered(db: Kysely<Database>, f: CallFilter): CallsQuery {
  let q = db.selectFrom('calls') as CallsQuery
  if (f.tenant_id) q = q.where('tenant_id', '=', f.tenant_id)
  if (f.agent_id) q = q.where('agent_id', '=', f.agent_id)
  if (f.squad_id) q = q.where('conversation_id', 'in', db.selectFrom('conversations').select('id').where('squad_id', '=', f.squad_id))
  if (f.status?.length) q = q.where('status', 'in', f.status)
  if (f.end_reason?.length) q = q.where('end_reason', 'in', f.end_reason)
  if (f.direction) q = q.where('direction', '=', f.direction)
  if (f.phonePrefix) {
    // A prefix as a range, so the number indexes serve it whatever LIKE's case rules are.
    const [low, high] = [f.phonePrefix, `${f.phonePrefix}\uffff`]
    q = q.where((eb: ExpressionBuilder<Database, 'calls'>) =>
      eb.or([eb.and([eb('from_number', '>=', low), eb('from_number', '<', high)]), eb.and([eb('to_number', '>=', low), eb('to_number', '<', high)])]),
    )
  }
  if (f.min_duration_ms !== undefined) q = q.where('duration_ms', '>=', f.min_duration_ms)
  if (f.max_duration_ms !== undefined) q = q.where('duration_ms', '<=', f.max_duration_ms)
  if (f.start_date) q = q.where('started_at', '>=', f.start_date)
  if (f.end_date) q = q.where('started_at', '<=', f.end_date)
  return q
}

/**
 * One page in the order asked, after `cursor` (keyset: the sort key, then the id, compared as a row
 * value), one more than `limit` to know whether another page follows. Rows arriving meanwhile do
 * not shift a page: each starts where the last one ended.
 */
export function callPage(db: Kysely<Database>, f: CallFilter, sort: CallCursor['sort'], order: 'asc' | 'desc', limit: number, cursor: CallCursor | null) {
  const key = sortKey(sort)
  let q = filtered(db, f).selectAll('calls').select(key.as('sort_key'))
  if (cursor) q = q.where(sql<boolean>`(${key}, id) ${sql.raw(order === 'desc' ? '<' : '>')} (${cursor.key}, ${cursor.id})`)
  return q
    .orderBy(key, order)
    .orderBy('id', order)
    .limit(limit + 1)
    .execute()
}

/** Calls of the filter: in all, and per status and per end reason, most first (then by name). */
export async function callCounts(db: Kysely<Database>, f: CallFilter) {
  const count = sql<number>`count(*)`
  // Each facet counts the filter without its own field, so every other value stays in sight to add.
  const [total, byStatus, byEndReason] = await Promise.all([
    filtered(db, f).select(count.as('count')).executeTakeFirstOrThrow(),
    filtered(db, { ...f, status: undefined }).select(['status', count.as('count')]).groupBy('status').orderBy('count', 'desc').orderBy('status').execute(),
    // "No end reason" (null) first among equal counts on both stores: SQLite puts nulls first by
    // itself, PostgreSQL last unless told.
    filtered(db, { ...f, end_reason: undefined }).select(['end_reason', count.as('count')]).groupBy('end_reason').orderBy('count', 'desc').orderBy('end_reason', (ob) => ob.asc().nullsFirst()).execute(),
  ])
  return { total: total.count, byStatus, byEndReason }
}
