import { type CallLogFilter, callLogFilterSchema } from './call-log-search'
import { callLogStreamQuerySchema, streamQueryFilter } from './call-log-stream'
import { DETAILS_KEY } from './call-log-facets'
import { endNotBeforeStart, instantParam, integerParam } from './params'
import { z } from './zod'

/*
 * "Count by" (issue 17 pt 4): the explorer's current result grouped by a field or a details key and
 * by time bucket (the histogram's buckets), the top N groups with the rest summed as "other". One
 * answer for both doors: tRPC `callLogs.countBy` (the console's filter) and the REST extension
 * `GET /logs/calls/count-by` (the API's parameter names), so its fields are snake_case as the REST
 * interface's are.
 */

/** The indexed fields a result can be counted by; `details.<key>` too (its own index for the keys of migration 0019, else every line is read). */
export const COUNT_BY_FIELDS = ['level', 'type', 'tenant', 'agent'] as const
export type CountByField = (typeof COUNT_BY_FIELDS)[number]

/** How many groups are named (the rest are summed as "other"). */
export const COUNT_BY_TOP = { min: 1, max: 10, default: 5 } as const

/**
 * The most (group, time bucket) pairs one count may hold before it is refused: a key with a value
 * per line (a request id) cannot be charted, and counting it would hold every value in memory.
 */
export const COUNT_BY_CELLS_MAX = 100_000

/** Levels that count as errors in a group's error rate. */
export const COUNT_BY_ERROR_LEVELS = ['error', 'critical'] as const

export const isCountByKey = (text: string): boolean =>
  (COUNT_BY_FIELDS as readonly string[]).includes(text) || (text.startsWith('details.') && DETAILS_KEY.test(text.slice('details.'.length)))

const BY_HELP = 'level, type, tenant, agent, or details.<key> (details.provider, details.usage.tokens)'

export const countByKeySchema = z
  .string()
  .max(208)
  .superRefine((text, ctx) => {
    if (isCountByKey(text)) return
    const error = `count by ${BY_HELP}`
    ctx.addIssue({ code: 'custom', message: `Value error, ${error}`, params: { type: 'value_error', ctx: { error } } })
  })
  .openapi({ description: `What to group by: ${BY_HELP}`, examples: ['details.provider', 'tenant'] })

export const countByTopSchema = z.number().int().min(COUNT_BY_TOP.min).max(COUNT_BY_TOP.max).default(COUNT_BY_TOP.default)

/** The console's door: its call log filter, the key and N. */
export const callLogCountByInputSchema = z.object({ filter: callLogFilterSchema, by: countByKeySchema, top: countByTopSchema })
export type CallLogCountByInput = z.input<typeof callLogCountByInputSchema>

/** The REST door: the live tail's filter parameters, a date range and the key and N. */
export const callLogCountByQuerySchema = callLogStreamQuerySchema
  .omit({ tail: true })
  .extend({
    by: countByKeySchema,
    top: integerParam({ min: COUNT_BY_TOP.min, max: COUNT_BY_TOP.max, default: COUNT_BY_TOP.default, description: 'How many groups to name, most lines first; the rest are summed as one "other" group' }),
    start_date: instantParam('Only records at or after this date or date-time (UTC when no offset is given)'),
    end_date: instantParam('Only records at or before this date or date-time; a bare date includes that whole day', true),
  })
  .superRefine(endNotBeforeStart)
export type CallLogCountByQuery = z.output<typeof callLogCountByQuerySchema>

/** The REST query as the console's filter: the one the explorer counts (the stream's, with its date range). */
export function countByQueryFilter(q: CallLogCountByQuery): CallLogFilter {
  return { ...streamQueryFilter(q), from: q.start_date, to: q.end_date }
}

export const COUNT_BY_GROUP_KINDS = ['value', 'none', 'other'] as const

export const countByGroupSchema = z
  .object({
    kind: z.enum(COUNT_BY_GROUP_KINDS).openapi({ description: '`value`: lines with this value; `none`: lines without the field or key; `other`: every group after the top N, summed' }),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.null()])
      .openapi({ description: 'The value as stored (a details value as JSON typed it: 200 and "200" are two groups; an object or array by its JSON text); null for `none` and `other`' }),
    name: z.string().nullable().openapi({ description: "The tenant's or agent's name when counting by tenant or agent, else null" }),
    name_shared: z.boolean().openapi({ description: 'Another tenant (agent) has the same name in any case: filter by id' }),
    count: z.number().int(),
    errors: z.number().int().openapi({ description: 'Lines of the group at level error or critical' }),
  })
  .openapi('CountByGroup')
export type CountByGroup = z.infer<typeof countByGroupSchema>

export const callLogCountBySchema = z
  .object({
    by: z.string(),
    top: z.number().int(),
    bucket_seconds: z.number().int().openapi({ description: 'The width of a time bucket, chosen from the range as the histogram does (at most 120 buckets)' }),
    from: z.string().nullable().openapi({ description: 'The start of the span counted (relative bounds resolved); null when nothing matches' }),
    to: z.string().nullable(),
    total: z.number().int().openapi({ description: 'Lines matching the filter' }),
    errors: z.number().int().openapi({ description: 'Of those, lines at level error or critical' }),
    groups: z.array(countByGroupSchema).openapi({ description: 'The top groups, most lines first (ties by value), then `other` when more groups exist' }),
    buckets: z
      .array(z.object({ start: z.string(), counts: z.array(z.number().int()).openapi({ description: "Lines per group in this bucket, in the order of `groups`" }) }))
      .openapi({ description: 'Every bucket of the span, oldest first, empty ones included' }),
  })
  .openapi('CallLogCountBy')
export type CallLogCountBy = z.infer<typeof callLogCountBySchema>

/**
 * One step of a count shown as it goes (tRPC `callLogs.countByProgress`): the answer over the time
 * slices read so far, newest first, the share of the range's buckets read, and whether it is the last.
 */
export const callLogCountByProgressSchema = z.object({
  answer: callLogCountBySchema,
  scanned: z.number().min(0).max(1),
  complete: z.boolean(),
})
export type CallLogCountByProgress = z.infer<typeof callLogCountByProgressSchema>
