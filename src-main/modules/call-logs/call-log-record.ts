import { parseInstant } from '../../../src-shared/schemas/params'
import { callLogSchema } from '../../../src-shared/schemas/call-log'
import { z } from '../../../src-shared/schemas/zod'
import type { NewCallLog } from '../../db/schema'

/**
 * A call log record as an import accepts it: the API's record (callLogSchema), with what real
 * exports vary in forgiven: level names in any case (Python logs say "ERROR"), optional fields
 * missing instead of null, timestamps with any offset or none (UTC), as the query parameters take
 * them. The log type follows the store's rule (lower-case identifier).
 */
const importedCallLogSchema = callLogSchema.extend({
  log_type: z.string().regex(/^[a-z][a-z0-9_.]{0,49}$/, 'log_type must be a lower-case identifier of at most 50 characters'),
  log_level: z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), callLogSchema.shape.log_level),
  timestamp: z.string().transform((text, ctx) => {
    const instant = parseInstant(text)
    if (instant === null) ctx.addIssue({ code: 'custom', message: `timestamp is not an ISO 8601 date-time: ${JSON.stringify(text.slice(0, 40))}` })
    return instant ?? z.NEVER
  }),
  // Missing optional fields become null in checkCallLog: cheaper than a zod default per field.
  agent_id: callLogSchema.shape.agent_id.optional(),
  session_id: callLogSchema.shape.session_id.optional(),
  call_id: callLogSchema.shape.call_id.optional(),
  details: callLogSchema.shape.details.optional(),
  user_id: callLogSchema.shape.user_id.optional(),
  trace_id: callLogSchema.shape.trace_id.optional(),
  request_id: callLogSchema.shape.request_id.optional(),
})

/** Problems named per refused record; the rest are counted, so a report line stays readable. */
const MAX_PROBLEMS = 3

/** Why a record was refused, one line: each problem with its field ("a is required; b: …"). */
function reason(error: z.ZodError, value: Record<string, unknown>): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.join('.')
    if (issue.path.length === 1 && value[String(issue.path[0])] === undefined) return `${field} is required`
    return field ? `${field}: ${issue.message}` : issue.message
  })
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ')
  return problems.length > MAX_PROBLEMS ? `${shown} (and ${problems.length - MAX_PROBLEMS} more)` : shown
}

export type RecordCheck = { row: NewCallLog } | { reason: string }

/** Validates one parsed record and turns it into a store row. */
export function checkCallLog(value: unknown): RecordCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'expected a JSON object' }
  const parsed = importedCallLogSchema.safeParse(value)
  if (!parsed.success) return { reason: reason(parsed.error, value as Record<string, unknown>) }
  const r = parsed.data
  return {
    row: {
      id: r.id.toLowerCase(),
      tenant_id: r.tenant_id.toLowerCase(),
      log_type: r.log_type,
      log_level: r.log_level,
      message: r.message,
      timestamp: r.timestamp,
      agent_id: r.agent_id?.toLowerCase() ?? null,
      session_id: r.session_id?.toLowerCase() ?? null,
      call_id: r.call_id?.toLowerCase() ?? null,
      details: r.details === undefined ? '{}' : JSON.stringify(r.details),
      user_id: r.user_id ?? null,
      trace_id: r.trace_id ?? null,
      request_id: r.request_id ?? null,
    },
  }
}
