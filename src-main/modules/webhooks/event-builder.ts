import type { CallDetail } from '../../../src-shared/schemas/call-detail'
import {
  TRANSCRIPT_CONTENT_MAX,
  TRANSCRIPT_MESSAGES_MAX,
  WEBHOOK_EVENT_SCHEMAS,
  type WebhookEvent,
  type WebhookEventKind,
  type WebhookEventOf,
} from '../../../src-shared/schemas/webhook-events'
import { WEBHOOK_LIMITS } from '../../../src-shared/schemas/webhooks'

/*
 * Events built from what the store holds about a call (its page, calls.get) or a session, or, for
 * a tenant without one that fits, an example with made-up values. Pure: the service picks the call.
 */

/** What session.ended reads of a stored session. */
export interface SessionFacts {
  id: string
  tenant_id: string
  agent_id: string | null
  call_id: string | null
  channel: string
  status: string
  language: string | null
  resolved: number | null
  created_at: string
  ended_at: string
  message_count: number
}

/** Why a stored call cannot give this kind of event; null when it can. */
export function unfitReason(kind: WebhookEventKind, detail: CallDetail): string | null {
  const c = detail.call
  if (kind === 'call.ended' && (c.status !== 'completed' || !c.ended_at)) return `it has not ended normally (status ${c.status ?? 'unknown'})`
  if (kind === 'call.failed' && c.status !== 'failed') return `it did not fail (status ${c.status ?? 'unknown'})`
  if (kind === 'transfer.completed' && !detail.transfers.some((t) => t.outcome)) return 'it has no finished transfer'
  if (kind === 'recording.ready' && !detail.recording) return 'the store has no recording line for it'
  if (kind === 'session.ended' && !detail.links.session_id) return 'it carried no session'
  return null
}

/** A recording address for the event: the stored one, else a stand-in under a reserved name. */
const recordingUrl = (detail: CallDetail) =>
  detail.recording?.url ?? `https://recordings.example.invalid/${detail.call.tenant_id}/${detail.call.id}.${detail.recording?.format ?? 'mp4'}`

const ids = (c: CallDetail['call']) => ({ call_id: c.id, tenant_id: c.tenant_id, agent_id: c.agent_id, session_id: c.conversation_id })
const parties = (c: CallDetail['call']) => ({ direction: c.direction ?? 'inbound', from_number: c.from_number, to_number: c.to_number })

function transcriptOf(detail: CallDetail, max: number) {
  const messages = detail.transcript.filter((m) => m.role !== 'system')
  return {
    transcript: messages.slice(0, max).map((m) => ({ role: m.role, content: m.content.slice(0, TRANSCRIPT_CONTENT_MAX), at: m.created_at })),
    transcript_truncated: messages.length > max || messages.some((m) => m.content.length > TRANSCRIPT_CONTENT_MAX),
  }
}

/** The event of `kind` about a stored call (unfitReason must have said null). */
export function eventFromCall(kind: Exclude<WebhookEventKind, 'session.ended'>, detail: CallDetail, transcriptMax = TRANSCRIPT_MESSAGES_MAX): WebhookEvent {
  const c = detail.call
  const startedAt = c.started_at ?? detail.timeline_start ?? new Date(0).toISOString()
  switch (kind) {
    case 'call.started':
      return { type: kind, timestamp: startedAt, data: { ...ids(c), ...parties(c), started_at: startedAt } }
    case 'call.ended':
      return {
        type: kind,
        timestamp: c.ended_at!,
        data: {
          ...ids(c), ...parties(c),
          status: c.status ?? 'completed', end_reason: c.end_reason,
          started_at: startedAt, answered_at: c.answered_at, ended_at: c.ended_at!, duration_ms: c.duration_ms,
          transfer_count: detail.transfers.length,
          ...transcriptOf(detail, transcriptMax),
          recording_url: detail.recording ? recordingUrl(detail) : null,
        },
      }
    case 'call.failed': {
      const errorLine = detail.lines.find((l) => l.log_level === 'error' || l.log_level === 'critical')
      return {
        type: kind,
        timestamp: c.ended_at ?? errorLine?.timestamp ?? startedAt,
        data: {
          ...ids(c), ...parties(c),
          status: c.status ?? 'failed', end_reason: c.end_reason,
          started_at: startedAt, ended_at: c.ended_at, duration_ms: c.duration_ms,
          error: {
            code: c.end_reason ?? 'unknown',
            message: errorLine?.message ?? `The call failed: ${(c.end_reason ?? 'unknown reason').replaceAll('_', ' ')}`,
            component: errorLine?.log_type ?? null,
          },
        },
      }
    }
    case 'transfer.completed': {
      const t = detail.transfers.findLast((x) => x.outcome)!
      const finishedAt = new Date(Date.parse(t.requested_at) + (t.latency_ms ?? 0)).toISOString()
      return {
        type: kind,
        timestamp: finishedAt,
        data: { ...ids(c), from_agent_id: t.from_agent_id, to_agent_id: t.to_agent_id, reason: t.reason, outcome: t.outcome!, latency_ms: t.latency_ms, requested_at: t.requested_at },
      }
    }
    case 'recording.ready': {
      const r = detail.recording!
      return {
        type: kind,
        timestamp: r.saved_at,
        data: {
          ...ids(c),
          recording_url: recordingUrl(detail), format: r.format ?? 'mp4', size_bytes: r.size_bytes === null ? null : Math.round(r.size_bytes),
          duration_ms: c.duration_ms, retention_days: r.retention_days === null ? null : Math.round(r.retention_days), saved_at: r.saved_at,
        },
      }
    }
  }
}

export function eventFromSession(s: SessionFacts): WebhookEventOf<'session.ended'> {
  return {
    type: 'session.ended',
    timestamp: s.ended_at,
    data: {
      session_id: s.id, tenant_id: s.tenant_id, agent_id: s.agent_id, call_id: s.call_id, channel: s.channel, status: s.status,
      language: s.language, message_count: s.message_count, started_at: s.created_at, ended_at: s.ended_at,
      resolved: s.resolved === null ? null : s.resolved === 1,
    },
  }
}

/**
 * An example of `kind` for a tenant with no stored call that fits: fixed ids under the tenant,
 * times around `now`, so a receiver can still be tested. `source: example` in the log says so.
 */
export function exampleEvent(kind: WebhookEventKind, tenantId: string, now: Date): WebhookEvent {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString()
  const call = { call_id: '00000000-0000-4000-8000-00000000ca11', tenant_id: tenantId, agent_id: '00000000-0000-4000-8000-0000000a9e47', session_id: '00000000-0000-4000-8000-00000005e551' }
  const party = { direction: 'inbound', from_number: '+15555550100', to_number: '+15555550199' }
  switch (kind) {
    case 'call.started':
      return { type: kind, timestamp: at(-60_000), data: { ...call, ...party, started_at: at(-60_000) } }
    case 'call.ended':
      return {
        type: kind, timestamp: at(0),
        data: {
          ...call, ...party, status: 'completed', end_reason: 'caller_hangup', started_at: at(-60_000), answered_at: at(-58_000), ended_at: at(0), duration_ms: 60_000, transfer_count: 0,
          transcript: [
            { role: 'assistant', content: 'Hello, how can I help you today?', at: at(-57_000) },
            { role: 'user', content: 'I would like to check my appointment.', at: at(-52_000) },
          ],
          transcript_truncated: false, recording_url: `https://recordings.example.invalid/${tenantId}/${call.call_id}.mp4`,
        },
      }
    case 'call.failed':
      return {
        type: kind, timestamp: at(0),
        data: { ...call, ...party, status: 'failed', end_reason: 'llm_unavailable', started_at: at(-20_000), ended_at: at(0), duration_ms: 20_000, error: { code: 'llm_unavailable', message: 'LLM provider returned 503 three times', component: 'llm' } },
      }
    case 'transfer.completed':
      return {
        type: kind, timestamp: at(0),
        data: { ...call, from_agent_id: call.agent_id, to_agent_id: '00000000-0000-4000-8000-0000000a9e48', reason: 'escalation', outcome: 'success', latency_ms: 2100, requested_at: at(-2100) },
      }
    case 'session.ended':
      return {
        type: kind, timestamp: at(0),
        data: { session_id: call.session_id, tenant_id: tenantId, agent_id: call.agent_id, call_id: call.call_id, channel: 'voice', status: 'completed', language: 'en', message_count: 2, started_at: at(-60_000), ended_at: at(0), resolved: true },
      }
    case 'recording.ready':
      return {
        type: kind, timestamp: at(0),
        data: { ...call, recording_url: `https://recordings.example.invalid/${tenantId}/${call.call_id}.mp4`, format: 'mp4', size_bytes: 480_000, duration_ms: 60_000, retention_days: 90, saved_at: at(0) },
      }
  }
}

/**
 * The body to sign: the event checked against its catalog schema (a bug here must not reach a
 * customer's receiver), as JSON, within the body limit: a long transcript is cut until it fits.
 */
export function serializeEvent(event: WebhookEvent, rebuild?: (transcriptMax: number) => WebhookEvent): string {
  let current = event
  let max = TRANSCRIPT_MESSAGES_MAX
  for (;;) {
    const checked = WEBHOOK_EVENT_SCHEMAS[current.type].parse(current)
    const body = JSON.stringify(checked)
    if (Buffer.byteLength(body) <= WEBHOOK_LIMITS.bodyMaxBytes || !rebuild || max === 0) return body
    max = Math.floor(max / 2)
    current = rebuild(max)
  }
}
