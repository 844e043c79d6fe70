import { LOG_LEVELS } from '../constants'
import { idParam } from './params'
import { z } from './zod'

/*
 * One call's page (issue 16 pt 2): `GET /calls/{call_id}` (a Callscope extension, beside the calls
 * list) and tRPC `calls.get`. How spans and turns are derived from the log lines is written in
 * docs/api.md ("Call detail") and implemented in src-main/modules/calls/call-timeline.ts.
 */

/** Lines of one call the page reads at most, in time order; `lines_total` says how many there are. */
export const CALL_LINES_MAX = 5000

export const callIdParamsSchema = z.object({ call_id: idParam('Call id (the `call_id` of its log lines)') })
export const callGetInputSchema = z.object({ callId: callIdParamsSchema.shape.call_id })

const iso = (description: string) => z.string().openapi({ format: 'date-time', description })
const isoOrNull = (description: string) => z.string().nullable().openapi({ format: 'date-time', description })
const ms = (description: string) => z.number().int().nullable().openapi({ description })

export const callHeaderSchema = z
  .object({
    id: z.string(),
    source: z.enum(['call_record', 'log_lines']).openapi({ description: 'call_record: the header is the calls row; log_lines: there is no calls row, and the header is read from the log lines (status unknown)' }),
    tenant_id: z.string(),
    tenant_name: z.string().nullable(),
    agent_id: z.string().nullable().openapi({ description: 'The agent that answered (the first of a transfer chain)' }),
    agent_name: z.string().nullable(),
    conversation_id: z.string().nullable().openapi({ description: 'The session the call carried' }),
    squad_id: z.string().nullable(),
    squad_name: z.string().nullable(),
    sip_trunk_id: z.string().nullable(),
    direction: z.string().nullable().openapi({ description: 'inbound or outbound (web for a WebRTC call known from its lines only)' }),
    from_number: z.string().nullable(),
    to_number: z.string().nullable(),
    status: z.string().nullable(),
    end_reason: z.string().nullable(),
    started_at: isoOrNull('When the call started'),
    answered_at: isoOrNull('When an agent answered'),
    ended_at: isoOrNull('When the call ended'),
    duration_ms: ms('How long the call lasted'),
    wait_ms: ms("The caller's wait before the agent joined (the agent-joined line's wait_ms)"),
  })
  .openapi('CallHeader')

export const callLineSchema = z
  .object({
    id: z.string(),
    timestamp: iso('When the line was logged'),
    log_type: z.string(),
    log_level: z.enum(LOG_LEVELS),
    message: z.string(),
    details: z.record(z.string(), z.unknown()),
    request_id: z.string().nullable(),
    trace_id: z.string().nullable(),
    span: z.number().int().nullable().openapi({ description: 'Index of the span the line belongs to (null: its timestamp could not be read)' }),
    turn: z.number().int().nullable().openapi({ description: 'Number of the turn the line belongs to (null: before the first turn or from the end of the call on)' }),
  })
  .openapi('CallLine')

export const callSpanSchema = z
  .object({
    index: z.number().int(),
    kind: z.string().openapi({ description: "The lines' log_type: stt, llm, tts, tool, transfer (spans of work), call, sip, webhook, system, … (events)" }),
    label: z.string().openapi({ description: "The span's first line's message" }),
    start: iso('Start of the span'),
    end: iso('End of the span (equal to start for an instant)'),
    start_ms: z.number().int().openapi({ description: 'Start, in ms after timeline_start' }),
    end_ms: z.number().int().openapi({ description: 'End, in ms after timeline_start' }),
    latency_ms: ms('The latency the lines report (details.latency_ms), or for a span of several lines without one, its length'),
    time_to_first_token_ms: ms("An LLM response's details.time_to_first_token_ms"),
    level: z.enum(LOG_LEVELS).openapi({ description: 'The most severe level among its lines' }),
    error: z.boolean().openapi({ description: 'A line of the span is at level error or critical' }),
    unfinished: z.boolean().openapi({ description: 'A request whose response or result line never came: it ends at its last line' }),
    line_ids: z.array(z.string()),
    turn: z.number().int().nullable(),
  })
  .openapi('CallSpan')

export const callTurnSchema = z
  .object({
    number: z.number().int().openapi({ description: '1 for the first thing the caller said' }),
    caller_stopped_at: iso("The STT final transcript's timestamp: the caller stopped speaking"),
    agent_started_at: isoOrNull('The first TTS line after it: the agent started speaking (null: none before the caller spoke again or the call ended)'),
    latency_ms: ms('agent_started_at − caller_stopped_at'),
    caller_text: z.string().nullable().openapi({ description: "What the caller said: the user message of the turn, else the transcript line's message" }),
    stt_line_id: z.string(),
    tts_line_id: z.string().nullable(),
    line_ids: z.array(z.string()),
    message_ids: z.array(z.string()),
    note: z.string().nullable().openapi({ description: 'Why the latency is missing, when it is' }),
  })
  .openapi('CallTurn')

export const callMessageSchema = z
  .object({
    id: z.string(),
    position: z.number().int(),
    role: z.string(),
    content: z.string(),
    language: z.string().nullable(),
    tool_name: z.string().nullable(),
    tool_call_id: z.string().nullable(),
    tool_arguments: z.unknown().openapi({ description: 'Parsed JSON, or null' }),
    tool_result: z.unknown().openapi({ description: 'Parsed JSON, or null' }),
    latency_ms: z.number().int().nullable(),
    created_at: iso('When the message was written'),
    turn: z.number().int().nullable(),
  })
  .openapi('CallMessage')

export const callTransferSchema = z
  .object({
    from_agent_id: z.string().nullable(),
    from_agent_name: z.string().nullable(),
    to_agent_id: z.string().nullable(),
    to_agent_name: z.string().nullable(),
    reason: z.string().nullable(),
    outcome: z.string().nullable().openapi({ description: 'success or failed; null while unknown' }),
    latency_ms: ms('How long the hand-over took'),
    requested_at: iso('When the transfer was requested'),
    source: z.enum(['transfers', 'log_lines']).openapi({ description: "transfers: the session's transfer records; log_lines: read from transfer lines (no records)" }),
  })
  .openapi('CallTransfer')

export const callRecordingSchema = z
  .object({
    format: z.string().nullable(),
    size_bytes: z.number().nullable(),
    retention_days: z.number().nullable(),
    url: z.string().nullable(),
    saved_at: iso("The recording line's timestamp"),
    line_id: z.string(),
  })
  .openapi('CallRecording')

export const callDetailSchema = z
  .object({
    call: callHeaderSchema,
    timeline_start: isoOrNull('Origin of the spans\' start_ms/end_ms: the earliest of the call start and the spans'),
    timeline_end: isoOrNull('The latest span end'),
    lines: z.array(callLineSchema).openapi({ description: `The call's log lines in time order (the first ${CALL_LINES_MAX})` }),
    lines_total: z.number().int(),
    spans: z.array(callSpanSchema),
    turns: z.array(callTurnSchema),
    turn_latency: z
      .object({ count: z.number().int(), median_ms: ms('Median of the turn latencies'), p90_ms: ms('90th percentile (linear interpolation)') })
      .openapi({ description: 'Over the turns whose latency is known' }),
    transcript: z.array(callMessageSchema).openapi({ description: "The session's messages in order (empty when the session is not in this store)" }),
    transfers: z.array(callTransferSchema).openapi({ description: 'The transfer chain in order: the first from_agent is the agent that answered' }),
    recording: callRecordingSchema.nullable(),
    links: z.object({
      session_id: z.string().nullable().openapi({ description: "The session's id (its transcript page when session_in_store)" }),
      session_in_store: z.boolean(),
      trace_ids: z.array(z.string()).openapi({ description: "Distinct trace ids of the call's lines, most lines first" }),
    }),
    missing: z.array(z.string()).openapi({ description: 'What the data lacks for this page, in words (pulled data may lack details the page reads)' }),
  })
  .openapi('CallDetail')

export type CallHeader = z.infer<typeof callHeaderSchema>
export type CallLine = z.infer<typeof callLineSchema>
export type CallSpan = z.infer<typeof callSpanSchema>
export type CallTurn = z.infer<typeof callTurnSchema>
export type CallMessage = z.infer<typeof callMessageSchema>
export type CallTransfer = z.infer<typeof callTransferSchema>
export type CallRecording = z.infer<typeof callRecordingSchema>
export type CallDetail = z.infer<typeof callDetailSchema>
