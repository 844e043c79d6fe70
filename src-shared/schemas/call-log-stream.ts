import { LOG_LEVELS } from '../constants'
import { LOG_QUERY_MAX_LENGTH } from '../log-query/parser'
import { type CallLogFilter, callLogFilterSchema, checkLogQuery } from './call-log-search'
import { idParam, integerParam, listParam, uuidQueryParam } from './params'
import { z } from './zod'

/*
 * The live tail (issue 16): `GET /logs/calls/stream`, a Callscope extension of the REST port
 * that streams call log records as NDJSON while they are stored; the console's and the CLI's tail
 * take the console's filter (call-log-search.ts) instead.
 */

export const TAIL_BACKLOG_MAX = 1_000

const levelList = listParam('Only these levels (debug, info, warning, error, critical); repeatable or comma-separated').pipe(
  z.array(z.string().transform((s) => s.toLowerCase()).pipe(z.enum(LOG_LEVELS))).optional(),
)

export const callLogStreamQuerySchema = z.object({
  tenant_id: uuidQueryParam("Only this tenant's records (a tenant-scoped token always sees only its own)"),
  agent_id: idParam('Only records of this agent').optional(),
  log_level: levelList,
  log_type: listParam('Only these log types (llm, stt, tts, tool, call, …); repeatable or comma-separated'),
  q: z.string().max(500).optional().openapi({ description: 'Full-text search in messages: words (all must match), "a phrase", prefix*' }),
  query: z
    .string()
    .max(LOG_QUERY_MAX_LENGTH)
    .superRefine(checkLogQuery)
    .optional()
    .openapi({ description: 'A query in the explorer\'s language (docs/query-language.md), e.g. `level:error (imeout OR "rate limit")`; a query that does not parse is a 422 with its position' }),
  call_id: z.string().min(1).max(200).optional().openapi({ description: 'Only records of this call' }),
  trace_id: z.string().min(1).max(200).optional().openapi({ description: 'Only records of this trace' }),
  session_id: z.string().min(1).max(200).optional().openapi({ description: 'Only records of this session' }),
  tail: integerParam({ min: 0, max: TAIL_BACKLOG_MAX, default: 0, description: 'First send the newest N matching records already stored (oldest first), like `tail -n N -f`' }),
})

export type CallLogStreamQuery = z.output<typeof callLogStreamQuerySchema>

/** The stream's query as the console's filter: the one the tail follows. */
export function streamQueryFilter(q: Omit<CallLogStreamQuery, 'tail'>): CallLogFilter {
  return {
    tenantId: q.tenant_id,
    agentId: q.agent_id,
    levels: q.log_level,
    types: q.log_type,
    q: q.q,
    query: q.query,
    callId: q.call_id,
    traceId: q.trace_id,
    sessionId: q.session_id,
  }
}

/** The console's and the CLI's tail: the explorer's filter, and where to resume. */
export const callLogTailInputSchema = z.object({
  filter: callLogFilterSchema,
  backlog: z.number().int().min(0).max(TAIL_BACKLOG_MAX).default(0),
  /** Set by tRPC when it reconnects: the lastSeq of the last batch received, as text. */
  lastEventId: z.string().regex(/^\d{1,15}$/).nullish(),
})
