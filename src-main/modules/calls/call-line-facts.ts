/*
 * What single log lines of a call say, read defensively: pulled or imported lines may lack a detail,
 * carry it as text, or carry something else under the same name. A value that is not what is expected
 * is treated as missing, never trusted and never thrown on.
 */

export interface FactLine {
  id: string
  tenant_id?: string
  timestamp: string
  log_type: string
  log_level: string
  message: string
  details: Record<string, unknown>
  agent_id?: string | null
  session_id?: string | null
}

/** A non-negative finite number under `key` (a number, or text holding one), else null. */
export function detailNumber(details: Record<string, unknown>, key: string): number | null {
  const value = details[key]
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isFinite(n) && n >= 0 ? n : null
}

/** Non-empty text under `key`, else null. */
export function detailText(details: Record<string, unknown>, key: string): string | null {
  const value = details[key]
  return typeof value === 'string' && value.trim() !== '' ? value : null
}

/**
 * An STT line that says what the caller said, final: `details.is_final` is not false, and it has
 * `audio_ms`, a `transcript` or `text`, `is_final: true`, or "transcript" in its message.
 */
export function isFinalTranscript(line: Pick<FactLine, 'log_type' | 'message' | 'details'>): boolean {
  if (line.log_type !== 'stt' || line.details.is_final === false) return false
  return (
    detailNumber(line.details, 'audio_ms') !== null ||
    detailText(line.details, 'transcript') !== null ||
    detailText(line.details, 'text') !== null ||
    line.details.is_final === true ||
    /transcript/i.test(line.message)
  )
}

/** The line that ends the call: a `call` line with details.end_reason. */
export const isCallEnd = (line: Pick<FactLine, 'log_type' | 'details'>) => line.log_type === 'call' && detailText(line.details, 'end_reason') !== null

/** The recording's metadata: the last line mentioning a recording whose details hold any of it. */
export function recordingOf(lines: FactLine[]) {
  const line = lines.findLast(
    (l) => /recording/i.test(l.message) && ['format', 'size_bytes', 'retention_days', 'url', 'recording_url'].some((k) => l.details[k] !== undefined && l.details[k] !== null),
  )
  if (!line) return null
  return {
    format: detailText(line.details, 'format'),
    size_bytes: detailNumber(line.details, 'size_bytes'),
    retention_days: detailNumber(line.details, 'retention_days'),
    url: detailText(line.details, 'url') ?? detailText(line.details, 'recording_url'),
    saved_at: line.timestamp,
    line_id: line.id,
  }
}

/** The agent-joined line: the first `call` line whose details name an agent_id. */
export const joinedLine = (lines: FactLine[]) => lines.find((l) => l.log_type === 'call' && detailText(l.details, 'agent_id') !== null) ?? null

/**
 * The header of a call known only from its lines: where it came from and went (the first `call`
 * line with details.from/to/direction), who answered (the agent-joined line, else the first line's
 * agent), how it ended (the call-end line). Its status is unknown: no line states it.
 */
export function headerFromLines(id: string, lines: FactLine[]) {
  const first = lines[0]
  const opened = lines.find((l) => l.log_type === 'call' && ['from', 'to', 'direction'].some((k) => detailText(l.details, k) !== null)) ?? null
  const joined = joinedLine(lines)
  const ended = lines.findLast((l) => isCallEnd(l)) ?? null
  const startedAt = first?.timestamp ?? null
  const duration = ended ? (detailNumber(ended.details, 'duration_ms') ?? (startedAt ? Date.parse(ended.timestamp) - Date.parse(startedAt) : null)) : null
  return {
    id,
    source: 'log_lines' as const,
    tenant_id: first?.tenant_id ?? '',
    agent_id: (joined && detailText(joined.details, 'agent_id')) ?? lines.find((l) => l.agent_id)?.agent_id ?? null,
    conversation_id: lines.find((l) => l.session_id)?.session_id ?? null,
    sip_trunk_id: opened ? detailText(opened.details, 'sip_trunk_id') : null,
    direction: opened ? detailText(opened.details, 'direction') : null,
    from_number: opened ? detailText(opened.details, 'from') : null,
    to_number: opened ? detailText(opened.details, 'to') : null,
    status: null,
    end_reason: ended ? detailText(ended.details, 'end_reason') : null,
    started_at: startedAt,
    answered_at: joined?.timestamp ?? null,
    ended_at: ended?.timestamp ?? null,
    duration_ms: duration === null || Number.isNaN(duration) ? null : Math.round(duration),
  }
}

/** A hop of the transfer chain read from transfer lines, when the session has no transfer records. */
export interface LineTransfer {
  from_agent_id: string | null
  to_agent_id: string | null
  reason: string | null
  outcome: string | null
  latency_ms: number | null
  requested_at: string
}

/**
 * The chain from transfer spans (their lines in order): each hop goes to the span's
 * details.to_agent_id, from the agent before it (the one that answered, first). The outcome is the
 * lines' details.outcome, else failed for a span at error level, else null (unknown).
 */
export function transfersFromSpans(spans: Array<{ kind: string; start: number; latency_ms: number | null; error: boolean; lines: FactLine[] }>, firstAgent: string | null): LineTransfer[] {
  let from = firstAgent
  return spans
    .filter((s) => s.kind === 'transfer')
    .map((s) => {
      const to = s.lines.map((l) => detailText(l.details, 'to_agent_id')).find((v) => v !== null) ?? null
      const outcome = s.lines.map((l) => detailText(l.details, 'outcome')).findLast((v) => v !== null) ?? (s.error ? 'failed' : null)
      const hop = {
        from_agent_id: from,
        to_agent_id: to,
        reason: s.lines.map((l) => detailText(l.details, 'reason')).find((v) => v !== null) ?? null,
        outcome,
        latency_ms: s.latency_ms,
        requested_at: new Date(s.start).toISOString(),
      }
      if (outcome === 'success' && to) from = to
      return hop
    })
}
