import { CALL_LOGS_PAGE as P, LOG_LEVELS } from '../constants'
import { endNotBeforeStart, instantParam, integerParam, uuidQueryParam } from './params'
import { z } from './zod'

/** A call log record as `GET /logs/calls` returns it (nullability decided in docs/api.md). */
export const callLogSchema = z
  .object({
    id: z.uuid(),
    tenant_id: z.uuid(),
    log_type: z.string().openapi({ description: 'call, sip, stt, llm, tts, tool, transfer, webhook, system, …' }),
    log_level: z.enum(LOG_LEVELS),
    message: z.string(),
    timestamp: z.string().openapi({ format: 'date-time' }),
    agent_id: z.uuid().nullable(),
    session_id: z.uuid().nullable(),
    call_id: z.uuid().nullable(),
    details: z.record(z.string(), z.unknown()),
    user_id: z.string().nullable(),
    trace_id: z.string().nullable(),
    request_id: z.string().nullable(),
  })
  .openapi('CallLog')

export const callLogListSchema = z.array(callLogSchema).openapi('CallLogList')

export const callLogQuerySchema = z
  .object({
    start_date: instantParam('Only records at or after this date or date-time (UTC when no offset is given)'),
    end_date: instantParam('Only records at or before this date or date-time; a bare date includes that whole day', true),
    agent_id: uuidQueryParam('Only records of this agent'),
    limit: integerParam({ min: P.limitMin, max: P.limitMax, default: P.limitDefault, description: 'Maximum number of records' }),
  })
  .superRefine(endNotBeforeStart)

export type CallLog = z.infer<typeof callLogSchema>
export type CallLogQuery = z.output<typeof callLogQuerySchema>
