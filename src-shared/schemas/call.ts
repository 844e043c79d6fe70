import { endNotBeforeStart, idParam, instantParam, integerParam, listParam, optionalIntegerParam, uuidQueryParam } from './params'
import { CALL_DIRECTIONS, CALL_SORTS, CALLS_PAGE } from '../call-list-options'
import { z } from './zod'

/*
 * The calls list (issue 16): a Callscope extension of the REST port, apart from the spec's seven
 * operations (its own tag in /openapi.json), and the console's Calls page through tRPC.
 */

export { CALL_DIRECTIONS, CALL_SORTS, CALLS_PAGE } from '../call-list-options'

/** One call as the list answers it. */
export const callSchema = z
  .object({
    id: z.string(),
    tenant_id: z.string(),
    agent_id: z.string().nullable(),
    conversation_id: z.string().nullable(),
    sip_trunk_id: z.string().nullable(),
    direction: z.string().openapi({ description: 'inbound or outbound' }),
    from_number: z.string(),
    to_number: z.string(),
    status: z.string().openapi({ description: 'completed, failed, …' }),
    end_reason: z.string().nullable(),
    started_at: z.string().openapi({ format: 'date-time' }),
    answered_at: z.string().nullable().openapi({ format: 'date-time' }),
    ended_at: z.string().nullable().openapi({ format: 'date-time' }),
    duration_ms: z.number().int().nullable(),
  })
  .openapi('Call')


export const callListSchema = z
  .object({
    calls: z.array(callSchema),
    /** Pass as `cursor` for the next page; null on the last one. */
    next_cursor: z.string().nullable().openapi({ description: 'Opaque; pass it as `cursor` for the next page. Null on the last page.' }),
    /** Calls matching the filter, every page together. */
    total: z.number().int(),
    by_status: z.array(z.object({ status: z.string(), count: z.number().int() })).openapi({ description: 'Calls per status, most first, for the filter without its status field (so every status can be added)' }),
    by_end_reason: z.array(z.object({ end_reason: z.string().nullable(), count: z.number().int() })).openapi({ description: 'Calls per end reason (null: none recorded), most first, for the filter without its end_reason field' }),
  })
  .openapi('CallList')

export const callListQuerySchema = z
  .object({
    tenant_id: uuidQueryParam('Only calls of this tenant'),
    agent_id: idParam('Only calls handled by this agent').optional(),
    squad_id: idParam("Only calls of this squad's sessions").optional(),
    status: listParam('Only calls with one of these statuses'),
    end_reason: listParam('Only calls with one of these end reasons'),
    direction: z.enum(CALL_DIRECTIONS).optional().openapi({ description: 'inbound or outbound' }),
    phone: z.string().trim().min(3).max(40).optional().openapi({ description: 'Calls from or to a number starting with this (e.g. +1415)' }),
    min_duration_ms: optionalIntegerParam({ min: 0, description: 'Only calls that lasted at least this long' }),
    max_duration_ms: optionalIntegerParam({ min: 0, description: 'Only calls that lasted at most this long' }),
    start_date: instantParam('Only calls started at or after this date or date-time (UTC when no offset is given)'),
    end_date: instantParam('Only calls started at or before this date or date-time; a bare date includes that whole day', true),
    sort: z.enum(CALL_SORTS).default('started_at').openapi({ description: 'started_at (default), duration_ms or status' }),
    order: z.enum(['desc', 'asc']).default('desc'),
    limit: integerParam({ min: CALLS_PAGE.limitMin, max: CALLS_PAGE.limitMax, default: CALLS_PAGE.limitDefault, description: 'Calls per page' }),
    cursor: z.string().max(1000).optional().openapi({ description: "The previous page's next_cursor" }),
  })
  .superRefine(endNotBeforeStart)
  .superRefine((q, ctx) => {
    if (q.cursor !== undefined) {
      const cursor = decodeCallCursor(q.cursor)
      const error = cursor === null ? 'not a cursor this list gave' : cursor.sort !== q.sort || cursor.order !== q.order ? `a cursor of the ${cursor.sort} ${cursor.order} order, not of this one` : null
      if (error) ctx.addIssue({ code: 'custom', path: ['cursor'], input: q.cursor, message: `Value error, ${error}`, params: { type: 'value_error', ctx: { error } } })
    }
    if (q.min_duration_ms !== undefined && q.max_duration_ms !== undefined && q.min_duration_ms > q.max_duration_ms) {
      const error = 'max_duration_ms must not be less than min_duration_ms'
      ctx.addIssue({ code: 'custom', path: ['max_duration_ms'], input: q.max_duration_ms, message: `Value error, ${error}`, params: { type: 'value_error', ctx: { error } } })
    }
  })

/** Where a page ends: the sort it belongs to and the last call's sort key and id. */
export interface CallCursor {
  sort: (typeof CALL_SORTS)[number]
  order: 'asc' | 'desc'
  key: string | number
  id: string
}

// Base64url of JSON: opaque to clients. atob/btoa are in every JS runtime this code runs in (Node, browsers).
export function encodeCallCursor(cursor: CallCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify([cursor.sort, cursor.order, cursor.key, cursor.id]))
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The cursor a page gave, or null when it is not one (edited, truncated, from another sort). */
export function decodeCallCursor(text: string): CallCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null
  try {
    const bytes = Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
    const value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown
    if (!Array.isArray(value) || value.length !== 4) return null
    const [sort, order, key, id] = value as unknown[]
    if (!CALL_SORTS.includes(sort as CallCursor['sort']) || (order !== 'asc' && order !== 'desc') || typeof id !== 'string') return null
    if (typeof key !== 'string' && typeof key !== 'number') return null
    return { sort: sort as CallCursor['sort'], order, key, id }
  } catch {
    return null
  }
}

/**
 * The console's input: the REST query as `query`, and the page's cursor beside it, where tRPC's
 * infinite queries put it (they also add `direction`, a name the query already uses).
 */
export const callListInputSchema = z.object({
  query: callListQuerySchema,
  cursor: z.string().max(1000).nullish(),
  direction: z.enum(['forward', 'backward']).optional(),
})

export type Call = z.infer<typeof callSchema>
export type CallList = z.infer<typeof callListSchema>
export type CallListQuery = z.output<typeof callListQuerySchema>
