import type { Kysely } from 'kysely'
import { jsonOrText } from '../../lib/json-or-text'
import { CALL_LINES_MAX, type CallDetail, type CallHeader, type CallTransfer } from '../../../src-shared/schemas/call-detail'
import type { LogLevel } from '../../../src-shared/constants'
import type { Database } from '../../db/schema'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import { NotFoundError } from '../../kit/errors'
import * as conversations from '../conversations/conversations.repo'
import { detailNumber, detailText, headerFromLines, joinedLine, recordingOf, transfersFromSpans } from './call-line-facts'
import { deriveTimeline, type Timeline, type TimelineLine } from './call-timeline'
import * as repo from './calls.detail.repo'

type LineRow = Awaited<ReturnType<typeof repo.callLines>>[number]
type Line = Omit<LineRow, 'details'> & { details: Record<string, unknown> }

/** Details as an object; text that is not a JSON object (never written by Callscope) reads as none. */
function parseDetails(text: unknown): { details: Record<string, unknown>; ok: boolean } {
  try {
    const value = JSON.parse(String(text)) as unknown
    if (value && typeof value === 'object' && !Array.isArray(value)) return { details: value as Record<string, unknown>, ok: true }
  } catch {
    // Falls through: counted and said in `missing`.
  }
  return { details: {}, ok: false }
}

const roundOrNull = (n: number | null) => (n === null ? null : Math.round(n))

/** Distinct trace ids, most lines first. */
function traceIds(lines: Line[]): string[] {
  const counts = new Map<string, number>()
  for (const l of lines) if (l.trace_id) counts.set(l.trace_id, (counts.get(l.trace_id) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id]) => id)
}

/** The transfer chain: the session's records when it has some, else what its transfer lines say. */
function transferChain(records: Awaited<ReturnType<typeof conversations.listTransfers>>, timeline: Timeline, lines: Line[], firstAgent: string | null, names: Map<string, string>): CallTransfer[] {
  if (records.length > 0) {
    return records.map((t) => ({
      from_agent_id: t.from_agent_id,
      from_agent_name: t.from_agent_name,
      to_agent_id: t.to_agent_id,
      to_agent_name: t.to_agent_name,
      reason: t.reason,
      outcome: t.outcome,
      latency_ms: t.latency_ms,
      requested_at: t.requested_at,
      source: 'transfers',
    }))
  }
  const byId = new Map(lines.map((l) => [l.id, l]))
  const spans = timeline.spans.map((s) => ({ ...s, lines: s.line_ids.map((id) => byId.get(id)!) }))
  return transfersFromSpans(spans, firstAgent).map((t) => ({
    ...t,
    from_agent_name: t.from_agent_id ? (names.get(t.from_agent_id) ?? null) : null,
    to_agent_name: t.to_agent_id ? (names.get(t.to_agent_id) ?? null) : null,
    source: 'log_lines',
  }))
}

/**
 * One call's page: its header (the calls row, else read from its lines), its lines as spans and
 * turns (call-timeline.ts), the session's transcript and transfers, the recording, links, and what is
 * missing. A call is found by its row or, with none, by its lines alone; a tenant token sees its
 * tenant's calls only, and any other id is "Call not found".
 */
export async function getCallDetail(db: Kysely<Database>, principal: Principal, callId: string): Promise<CallDetail> {
  const scope = tenantScope(principal)
  const source = sourceScope(principal)
  // The calls table holds Callscope's own calls; a pulled backend's are known from their lines.
  const [row, rows, total] = await Promise.all([
    source === undefined || source === '' ? repo.findCall(db, callId) : undefined,
    repo.callLines(db, callId, scope, CALL_LINES_MAX, source),
    repo.countCallLines(db, callId, scope, source),
  ])
  if (row ? !canSeeTenant(principal, row.tenant_id) : rows.length === 0) throw new NotFoundError('Call')
  let badDetails = 0
  const lines: Line[] = rows.map((r) => {
    const { details, ok } = parseDetails(r.details)
    if (!ok) badDetails++
    return { ...r, details }
  })
  const missing: string[] = []
  const base = row ? { ...row, source: 'call_record' as const } : headerFromLines(callId, lines)
  if (!row) missing.push('No call record in this store: the header is read from the log lines, and the status is unknown.')
  const joined = joinedLine(lines)
  const conversationId = base.conversation_id
  const [conversation, messages, transferRows] = conversationId
    ? await Promise.all([conversations.findConversation(db, conversationId), conversations.listMessages(db, conversationId), conversations.listTransfers(db, conversationId)])
    : [undefined, [], []]
  const session = conversation && canSeeTenant(principal, conversation.tenant_id) ? conversation : undefined
  const timeline = deriveTimeline(lines as TimelineLine[], session ? messages : [], base.started_at)
  const squadId = session?.squad_id ?? (joined && detailText(joined.details, 'squad_id'))
  const lineAgents = lines.flatMap((l) => [detailText(l.details, 'agent_id'), detailText(l.details, 'to_agent_id')]).filter((v): v is string => v !== null)
  const [names, tenant, squad] = await Promise.all([
    repo.agentNames(db, [...new Set([base.agent_id, ...lineAgents].filter((v): v is string => !!v))]),
    base.tenant_id ? repo.tenantName(db, base.tenant_id) : null,
    squadId ? (session?.squad_name ?? repo.squadName(db, squadId)) : null,
  ])
  const call: CallHeader = {
    id: base.id,
    source: base.source,
    tenant_id: base.tenant_id,
    tenant_name: tenant,
    agent_id: base.agent_id,
    agent_name: base.agent_id ? (names.get(base.agent_id) ?? null) : null,
    conversation_id: conversationId,
    squad_id: squadId ?? null,
    squad_name: squad,
    sip_trunk_id: base.sip_trunk_id,
    direction: base.direction,
    from_number: base.from_number,
    to_number: base.to_number,
    status: base.status,
    end_reason: base.end_reason,
    started_at: base.started_at,
    answered_at: base.answered_at,
    ended_at: base.ended_at,
    duration_ms: base.duration_ms,
    wait_ms: roundOrNull(joined ? detailNumber(joined.details, 'wait_ms') : null),
  }
  if (lines.length === 0) missing.push('No log lines for this call: no timeline, turns or recording.')
  if (total > lines.length) missing.push(`The call has ${total.toLocaleString('en-US')} log lines: the page reads the first ${lines.length.toLocaleString('en-US')}.`)
  if (badDetails > 0) missing.push(`${badDetails} lines have details that are not a JSON object: read as empty.`)
  missing.push(...timeline.notes)
  if (conversationId && !session) missing.push('The session of this call is not in this store: no transcript.')
  if (!conversationId) missing.push('No session id on the call or its lines: no transcript.')
  const recording = recordingOf(lines)
  if (lines.length > 0 && !recording) missing.push('No recording line (a line about the recording with format, size_bytes, retention_days or url).')
  const at = (ms: number) => new Date(ms).toISOString()
  const origin = timeline.start ?? 0
  return {
    call,
    timeline_start: timeline.start === null ? null : at(timeline.start),
    timeline_end: timeline.end === null ? null : at(timeline.end),
    lines: timeline.lines.map(({ line, span, turn }) => {
      const l = line as unknown as Line
      return { id: l.id, timestamp: l.timestamp, log_type: l.log_type, log_level: l.log_level as LogLevel, message: l.message, details: l.details, request_id: l.request_id, trace_id: l.trace_id, span, turn }
    }),
    lines_total: total,
    spans: timeline.spans.map((s) => ({ ...s, start: at(s.start), end: at(s.end), start_ms: Math.round(s.start - origin), end_ms: Math.round(s.end - origin) })),
    turns: timeline.turns.map((t) => ({ ...t, caller_stopped_at: at(t.caller_stopped_at), agent_started_at: t.agent_started_at === null ? null : at(t.agent_started_at) })),
    turn_latency: timeline.turnLatency,
    transcript: (session ? messages : []).map((m) => ({
      id: m.id,
      position: m.position,
      role: m.role,
      content: m.content,
      language: m.language,
      tool_name: m.tool_name,
      tool_call_id: m.tool_call_id,
      tool_arguments: jsonOrText(m.tool_arguments),
      tool_result: jsonOrText(m.tool_result),
      latency_ms: m.latency_ms,
      created_at: m.created_at,
      turn: timeline.messageTurns.get(m.id) ?? null,
    })),
    transfers: transferChain(session ? transferRows : [], timeline, lines, base.agent_id, names),
    recording,
    links: { session_id: conversationId, session_in_store: session !== undefined, trace_ids: traceIds(lines) },
    missing,
  }
}
