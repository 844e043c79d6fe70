import { LOG_LEVELS } from '../constants'
import { LOG_QUERY_MAX_LENGTH, parseLogQuery } from '../log-query/parser'
import { laxUuid, parseInstant } from './params'
import { canonicalRelative, relativeOffsetMs } from '../time-range'
import { z } from './zod'

/** The most rows one page of the console's call log search returns. */
export const CALL_LOG_SEARCH_PAGE_MAX = 500

const instant = (endOfDay: boolean) =>
  z
    .string()
    .max(40)
    .transform((text, ctx) => {
      // `now-15m` stays relative here: the service resolves it for each read (src-shared/time-range.ts).
      const parsed = canonicalRelative(text) ?? parseInstant(text.trim(), endOfDay)
      if (parsed === null) {
        ctx.addIssue({ code: 'custom', message: 'Expected an ISO 8601 date (2026-11-01), a date-time (2026-11-01T09:30:00Z) or a time relative to now (now-15m, now-24h, now-7d)' })
        return z.NEVER
      }
      return parsed
    })

/** A query that does not parse is refused with its position (ctx.offset, ctx.length: UTF-16, 0-based) and a hint. */
export function checkLogQuery(text: string, ctx: z.RefinementCtx): void {
  const parsed = parseLogQuery(text)
  if (parsed.ok) return
  const { message, offset, length, hint } = parsed.error
  ctx.addIssue({
    code: 'custom',
    message: `${message} (at column ${offset + 1}). ${hint}`,
    params: { type: 'query_syntax', ctx: { offset, length, column: offset + 1, hint } },
  })
}

/**
 * Whether the range can hold anything: two instants or two relative bounds are compared; an instant
 * against a relative bound depends on when it is read, which the service checks then (resolveFilter).
 */
export function startsBeforeEnd(f: { from?: string; to?: string }): boolean {
  if (!f.from || !f.to) return true
  const from = relativeOffsetMs(f.from)
  const to = relativeOffsetMs(f.to)
  if (from !== null && to !== null) return from >= to
  return from !== null || to !== null || f.from <= f.to
}

/**
 * The console's call log filter: richer than `GET /logs/calls`. Every field is optional; a
 * tenant-scoped principal's own tenant always replaces `tenantId`.
 */
export const callLogFilterSchema = z
  .object({
    /** Inclusive; a bare date is the start of that day (UTC); `now-15m` is relative to each read. */
    from: instant(false).optional(),
    /** Inclusive; a bare date includes that whole day (UTC); `now`, `now-1h` are relative to each read. */
    to: instant(true).optional(),
    agentId: laxUuid().optional(),
    tenantId: laxUuid().optional(),
    levels: z.array(z.enum(LOG_LEVELS)).max(LOG_LEVELS.length).optional(),
    types: z
      // Open strings, as stored (issue 15).
      .array(z.string().min(1).max(100))
      .max(50)
      .optional(),
    /** Full-text search over messages: words (all must match), "quoted phrases", prefix*. */
    q: z.string().max(500).optional(),
    /**
     * The query language (src-shared/log-query, docs/query-language.md): field filters, AND/OR/NOT,
     * phrases, prefixes, substrings and @last/@since/@until, ANDed with the other fields.
     */
    query: z.string().max(LOG_QUERY_MAX_LENGTH).superRefine(checkLogQuery).optional(),
    callId: z.string().max(200).optional(),
    traceId: z.string().max(200).optional(),
    sessionId: z.string().max(200).optional(),
  })
  .refine(startsBeforeEnd, { message: 'The range ends before it starts', path: ['to'] })

export type CallLogFilterInput = z.input<typeof callLogFilterSchema>
export type CallLogFilter = z.output<typeof callLogFilterSchema>

/** Keyset cursor: the (timestamp, seq) of the last row of the previous page. */
export const callLogCursorSchema = z.object({ timestamp: z.string().max(40), seq: z.number().int().nonnegative() })
export type CallLogCursor = z.infer<typeof callLogCursorSchema>

export const callLogSearchInputSchema = z.object({
  filter: callLogFilterSchema,
  cursor: callLogCursorSchema.nullish(),
  limit: z.number().int().min(1).max(CALL_LOG_SEARCH_PAGE_MAX).default(200),
})

/** What the lines around a record share with it: its call, its trace, or only nearness in time. */
export const CONTEXT_SCOPES = ['call', 'trace', 'time'] as const
export type ContextScope = (typeof CONTEXT_SCOPES)[number]
/** In time, optionally only lines of the record's tenant or agent. */
export const CONTEXT_SAME = ['tenant', 'agent'] as const
export type ContextSame = (typeof CONTEXT_SAME)[number]
export const CONTEXT_LINES_MAX = 200

export const callLogContextInputSchema = z.object({
  id: z.string().max(200),
  before: z.number().int().min(0).max(CONTEXT_LINES_MAX).default(20),
  after: z.number().int().min(0).max(CONTEXT_LINES_MAX).default(20),
  /** Unset: the call, else the trace, else time (a line with neither still has context). */
  scope: z.enum(CONTEXT_SCOPES).optional(),
  same: z.enum(CONTEXT_SAME).nullish(),
})
export type CallLogContextInput = z.input<typeof callLogContextInputSchema>
