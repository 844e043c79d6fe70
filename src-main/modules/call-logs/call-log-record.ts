import { LOG_LEVEL_RULE, readLogLevel } from '../../../src-shared/log-levels'
import { parseInstant } from '../../../src-shared/schemas/params'
import { callLogSchema } from '../../../src-shared/schemas/call-log'
import { z } from '../../../src-shared/schemas/zod'
import type { NewCallLog } from '../../db/schema'
import { refusalReason } from '../../kit/refusal'

/** Any 8-4-4-4-12 hexadecimal UUID, of any version and variant (pydantic's reading), stored lower-case. */
const anyUuid = () => z.guid('must be a UUID, 8-4-4-4-12 hexadecimal digits')

/**
 * A call log record as an import or a pull accepts it: the API's record (callLogSchema), with what
 * real backends vary in forgiven (issue 15): UUIDs of any version or case, levels in any spelling
 * (`WARN`, `fatal`, `40`; src-shared/log-levels.ts) read into the five, the original kept, the log
 * type any text of 1 to 100 characters, optional fields missing instead of null, and timestamps
 * with any offset or none (UTC), as the query parameters take them.
 */
const importedCallLogSchema = callLogSchema.extend({
  id: anyUuid(),
  tenant_id: anyUuid(),
  log_type: z.string('must be text').min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  log_level: z.unknown().transform((value, ctx) => {
    const read = readLogLevel(value)
    if (read === null) ctx.addIssue({ code: 'custom', input: value, message: LOG_LEVEL_RULE })
    return read ?? z.NEVER
  }),
  timestamp: z.string('must be an ISO 8601 date-time').transform((text, ctx) => {
    const instant = parseInstant(text)
    if (instant === null) ctx.addIssue({ code: 'custom', input: text, message: 'must be an ISO 8601 date-time' })
    return instant ?? z.NEVER
  }),
  // Missing optional fields become null in checkCallLog: cheaper than a zod default per field.
  agent_id: anyUuid().nullable().optional(),
  session_id: anyUuid().nullable().optional(),
  call_id: anyUuid().nullable().optional(),
  details: callLogSchema.shape.details.optional(),
  user_id: callLogSchema.shape.user_id.optional(),
  trace_id: callLogSchema.shape.trace_id.optional(),
  request_id: callLogSchema.shape.request_id.optional(),
})

export type RecordCheck = { row: NewCallLog } | { reason: string }

/** Validates one parsed record and turns it into a store row. */
export function checkCallLog(value: unknown): RecordCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'expected a JSON object' }
  const parsed = importedCallLogSchema.safeParse(value, { reportInput: true })
  if (!parsed.success) return { reason: refusalReason(parsed.error, value as Record<string, unknown>) }
  const r = parsed.data
  return {
    row: {
      id: r.id.toLowerCase(),
      tenant_id: r.tenant_id.toLowerCase(),
      log_type: r.log_type,
      log_level: r.log_level.level,
      log_level_original: r.log_level.original,
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
