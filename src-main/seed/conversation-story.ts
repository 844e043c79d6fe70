import { corpus, fill, fillDeep, type Scenario, type TurnKey } from './corpus'
import { phoneNumber, placeholderValues } from './locale-values'
import type { Organization, SeedAgent, SeedSquad, SeedTenant, SeedTrunk } from './organization'
import type { Rng } from './rng'

/**
 * One conversation (chat session) and, for voice, its call: messages, transfer and the call log
 * lines an agent platform would write while it happened. Failures are decided first and the story
 * follows from them, so error lines cluster on the calls that really failed.
 */

const SECOND = 1000

export type Row = Record<string, unknown>

export interface StoryWriters {
  conversation(row: Row): void
  message(row: Row): void
  call(row: Row): void
  transfer(row: Row): void
  log(row: Row): void
}

/** A time window in which something degrades: a provider's API or a tenant's SIP trunk. */
export interface Incident {
  kind: 'llm' | 'stt' | 'sip' | 'tool'
  /** Provider id, trunk id or tenant id, by kind. */
  target: string
  start: number
  end: number
  probability: number
  label: string
}

export interface StoryContext {
  rng: Rng
  anchor: number
  org: Organization
  incidents: Incident[]
  write: StoryWriters
}

type Outcome = 'ok' | 'tool_error' | 'llm_timeout' | 'stt_failure' | 'sip_failure' | 'abandoned'

interface LogEvent {
  t: number
  type: string
  level: string
  message: string
  details: Row
  requestId: string | null
}

interface Participants {
  tenant: SeedTenant
  agent: SeedAgent
  squad: SeedSquad | null
  trunk: SeedTrunk | null
}

const iso = (ms: number) => new Date(ms).toISOString()
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const seconds = (ms: number) => (ms / 1000).toFixed(1)

function inIncident(ctx: StoryContext, kind: Incident['kind'], target: string, t: number): Incident | null {
  for (const incident of ctx.incidents) {
    if (incident.kind === kind && incident.target === target && t >= incident.start && t < incident.end) {
      return incident
    }
  }
  return null
}

function decideOutcome(ctx: StoryContext, p: Participants, voice: boolean, t: number): Outcome {
  const { rng } = ctx
  if (voice && p.trunk) {
    const sip = inIncident(ctx, 'sip', p.trunk.id, t)
    if (sip && rng.bool(sip.probability)) return 'sip_failure'
  }
  const llm = inIncident(ctx, 'llm', p.agent.llm.provider, t)
  if (llm && rng.bool(llm.probability)) return 'llm_timeout'
  if (voice) {
    const stt = inIncident(ctx, 'stt', p.agent.stt.provider, t)
    if (stt && rng.bool(stt.probability)) return 'stt_failure'
  }
  const tool = inIncident(ctx, 'tool', p.tenant.id, t)
  if (tool && rng.bool(tool.probability)) return 'tool_error'
  return rng.weighted(
    ['ok', 'tool_error', 'llm_timeout', 'stt_failure', 'abandoned'],
    [84, 6, 1.5, voice ? 1.5 : 0, 7],
  )
}

export function writeConversation(ctx: StoryContext, p: Participants, start: number, voice: boolean): number {
  const { rng, write, anchor } = ctx
  const { tenant, agent, squad, trunk } = p
  const language = rng.weighted(agent.languages, agent.languages.map((_, i) => (i === 0 ? 3 : 1)))
  const scenarios = corpus.scenarios.filter((s) => s.industries.includes(tenant.industry))
  const scenario: Scenario = rng.pick(scenarios.length > 0 ? scenarios : corpus.scenarios)
  const turns = scenario.turns[language] ?? scenario.turns.en!
  const values = placeholderValues(rng, language, start, { agent: agent.firstName, company: tenant.name })
  const outcome = decideOutcome(ctx, p, voice, start)
  const conversationId = rng.uuid()
  const callId = voice ? rng.uuid() : null
  const traceId = rng.hex(32)
  const userId = `usr_${rng.alnum(10)}`
  const caller = phoneNumber(rng, language)
  const strategy = squad
    ? squad.previousStrategy && start < squad.strategyChangedAt
      ? squad.previousStrategy
      : squad.strategy
    : null
  const waitMs = squad ? waitFor(rng, strategy!) : null
  const gap = (min: number, max: number) => (voice ? rng.int(min, max) : rng.int(min * 4, max * 6))

  const events: LogEvent[] = []
  const log = (t: number, type: string, level: string, message: string, details: Row, requestId: string | null = null) =>
    events.push({ t, type, level, message, details, requestId })

  // Messages, as a timeline.
  const messages: Row[] = []
  let t = start + (waitMs ?? 0)
  const say = (role: 'user' | 'assistant', key: TurnKey, extra: Row = {}) => {
    const content = fill(turns[key], values)
    messages.push({ role, content, language, tool_name: null, tool_call_id: null, tool_arguments: null, tool_result: null, latency_ms: null, created_at: t, ...extra })
    return content
  }

  // Call set-up lines.
  const room = `call-${rng.alnum(10)}`
  const trunkNumber = trunk ? rng.pick(trunk.numbers) : null
  // Calls over a trunk are inbound or outbound phone calls; tenants without SIP take web (WebRTC) calls.
  const direction = !voice ? null : trunk ? (rng.bool(0.15) ? 'outbound' : 'inbound') : 'web'
  const from = direction === 'outbound' ? trunkNumber! : direction === 'inbound' ? caller : `webrtc:${userId}`
  const to = direction === 'outbound' ? caller : direction === 'inbound' ? trunkNumber! : `room:${room}`
  if (voice) {
    log(start, 'call', 'info', direction === 'web' ? `Web call started in room ${room}` : `${direction === 'inbound' ? 'Inbound' : 'Outbound'} call from ${from} to ${to}`, {
      direction,
      from,
      to,
      sip_trunk_id: trunk?.id ?? null,
    })
    if (direction !== 'web') log(start + 40, 'sip', 'debug', 'SIP INVITE received, answered 100 Trying', {
      sip_call_id: `${rng.hex(16)}@${tenant.domain}`,
      codec: 'PCMU/8000',
      remote_address: `198.51.100.${rng.int(2, 250)}:5060`,
    })
    if (outcome === 'sip_failure') {
      log(start + 2200, 'sip', 'critical', `SIP trunk ${trunk?.id ?? 'n/a'} returned 503 Service Unavailable; call not bridged`, {
        sip_status: 503,
        sip_trunk_id: trunk?.id ?? null,
        carrier_reason: 'upstream congestion',
      })
      log(start + 2300, 'call', 'error', 'Call failed before the agent joined: SIP 503 from carrier', {
        end_reason: 'sip_503',
        duration_ms: 2300,
      })
    } else {
      log(start + 300 + (waitMs ?? 0), 'call', 'info', `Agent ${agent.name} joined room ${room}`, {
        room,
        agent_id: agent.id,
        squad_id: squad?.id ?? null,
        routing_strategy: strategy,
        wait_ms: waitMs,
      })
      log(start + 350 + (waitMs ?? 0), 'stt', 'debug', `STT stream opened: ${agent.stt.provider}/${agent.stt.model} (${language})`, {
        provider: agent.stt.provider,
        model: agent.stt.model,
        language,
        encoding: 'linear16',
        sample_rate: 16000,
      })
    }
  }

  let llmRound = 0
  const llmTurn = (at: number, finish: 'stop' | 'tool_calls', slowChance = 0.05): number => {
    const requestId = `req_${rng.alnum(14)}`
    llmRound += 1
    const inputTokens = 450 + llmRound * rng.int(60, 140)
    const slow = rng.bool(slowChance)
    const latency = Math.round(slow ? rng.int(1600, 4200) : rng.around(agent.llm.meanLatencyMs, agent.llm.meanLatencyMs * 0.25, 120, 1500))
    log(at, 'llm', 'debug', `LLM request ${agent.llm.provider}/${agent.llm.model}`, {
      provider: agent.llm.provider,
      model: agent.llm.model,
      input_tokens: inputTokens,
      tools: [scenario.tool.name],
      temperature: 0.3,
    }, requestId)
    log(at + latency, 'llm', slow ? 'warning' : 'info', slow
      ? `Slow LLM response: ${latency} ms (threshold 1500 ms)`
      : `LLM response in ${latency} ms (${finish})`, {
      latency_ms: latency,
      time_to_first_token_ms: Math.round(latency * 0.45),
      output_tokens: finish === 'tool_calls' ? rng.int(18, 45) : rng.int(25, 90),
      finish_reason: finish,
    }, requestId)
    return latency
  }
  const speak = (at: number, text: string) => {
    if (!voice) return
    const latency = rng.int(90, 320)
    log(at, 'tts', 'debug', `TTS ${text.length} chars via ${agent.tts.provider}/${agent.tts.model} in ${latency} ms`, {
      provider: agent.tts.provider,
      model: agent.tts.model,
      voice_id: agent.tts.voiceId,
      characters: text.length,
      latency_ms: latency,
    })
  }
  const hear = (at: number, text: string) => {
    if (!voice) return
    const confidence = Math.round(rng.around(0.93, 0.04, 0.55, 0.99) * 100) / 100
    log(at, 'stt', confidence < 0.7 ? 'warning' : 'info', confidence < 0.7
      ? `Low-confidence transcript (${confidence}): "${clip(text, 60)}"`
      : `Final transcript (${confidence}): "${clip(text, 60)}"`, {
      language,
      confidence,
      words: text.split(/\s+/).length,
      audio_ms: rng.int(1200, 5200),
    })
  }

  let status = 'completed'
  let resolved: number | null = 1
  let endReason = 'caller_hangup'
  let transferred: Transfer | null = null

  if (outcome !== 'sip_failure') {
    t += gap(800, 1800)
    speak(t - 200, say('assistant', 'greeting'))
    t += gap(3500, 9000)
    const request = say('user', 'request')
    hear(t, request)

    if (outcome === 'abandoned') {
      status = 'abandoned'
      resolved = 0
      t += gap(2000, 6000)
      log(t, 'call', 'info', 'Caller hung up before the request was handled', { last_role: 'user' })
    } else if (outcome === 'stt_failure') {
      t += 600
      log(t, 'stt', 'warning', `STT provider ${agent.stt.provider} returned 429 Too Many Requests, retrying in 500 ms`, { status: 429, attempt: 1 })
      t += 900
      log(t, 'stt', 'error', 'STT stream closed unexpectedly: upstream websocket code 1011', { provider: agent.stt.provider, close_code: 1011, attempt: 2 })
      t += 400
      log(t, 'call', 'error', 'Call failed: speech recognition unavailable', { end_reason: 'stt_unavailable' })
      status = 'failed'
      resolved = 0
      endReason = 'stt_unavailable'
    } else if (outcome === 'llm_timeout') {
      t += 300
      const requestId = `req_${rng.alnum(14)}`
      log(t, 'llm', 'debug', `LLM request ${agent.llm.provider}/${agent.llm.model}`, { provider: agent.llm.provider, model: agent.llm.model, input_tokens: 520 }, requestId)
      t += 10_000
      log(t, 'llm', 'warning', 'LLM request timed out after 10000 ms, retrying (1/2)', { timeout_ms: 10000, attempt: 1, provider: agent.llm.provider }, requestId)
      t += 10_000
      log(t, 'llm', 'error', `LLM request failed after 2 attempts: ${agent.llm.provider} timeout`, { timeout_ms: 10000, attempts: 2, provider: agent.llm.provider, error: 'timeout' }, requestId)
      log(t + 50, 'call', 'error', 'Call failed: language model unavailable', { end_reason: 'llm_unavailable' })
      status = 'failed'
      resolved = 0
      endReason = 'llm_unavailable'
    } else {
      // The tool round: the model calls the scenario's tool, the tool answers, the model replies.
      t += llmTurn(t + 250, 'tool_calls') + 300
      const toolCallId = `call_${rng.alnum(16)}`
      const args = fillDeep(scenario.tool.arguments, values) as Row
      say('assistant', 'tool_preamble', { tool_name: scenario.tool.name, tool_call_id: toolCallId, tool_arguments: JSON.stringify(args) })
      speak(t, fill(turns.tool_preamble, values))
      const toolFailed = outcome === 'tool_error'
      const toolLatency = toolFailed ? rng.int(1500, 8000) : rng.int(120, 1400)
      const toolRequest = `req_${rng.alnum(14)}`
      log(t + 20, 'tool', 'info', `Calling tool ${scenario.tool.name}`, { tool: scenario.tool.name, tool_call_id: toolCallId, arguments: args }, toolRequest)
      t += toolLatency
      const result = fillDeep(toolFailed ? scenario.tool.error : scenario.tool.result, values) as Row
      messages.push({ role: 'tool', content: '', language: null, tool_name: scenario.tool.name, tool_call_id: toolCallId, tool_arguments: null, tool_result: JSON.stringify(result), latency_ms: toolLatency, created_at: t })
      if (toolFailed) {
        const code = String(result.code ?? result.error ?? 'error')
        log(t, 'tool', 'error', `Tool ${scenario.tool.name} failed after ${toolLatency} ms: ${code}`, { tool: scenario.tool.name, status: 'error', latency_ms: toolLatency, error: result }, toolRequest)
      } else {
        log(t, 'tool', 'info', `Tool ${scenario.tool.name} returned in ${toolLatency} ms`, { tool: scenario.tool.name, status: 'ok', latency_ms: toolLatency }, toolRequest)
      }
      t += llmTurn(t + 30, 'stop') + 200
      speak(t - 150, say('assistant', toolFailed ? 'failure' : 'success'))

      // A failed tool in a squad usually goes to a colleague; otherwise the call carries on.
      const colleagues = squad ? squad.members.filter((m) => m.id !== agent.id) : []
      const wantsTransfer = colleagues.length > 0 && (toolFailed ? rng.bool(0.6) : rng.bool(0.07))
      if (wantsTransfer) {
        transferred = transfer(ctx, p, colleagues, conversationId, language, toolFailed, t + gap(1500, 4000), log)
        t = transferred.completedAt
        status = 'transferred'
        resolved = transferred.ok ? 1 : 0
        endReason = transferred.ok ? 'transferred' : 'transfer_failed'
      } else {
        resolved = toolFailed ? 0 : 1
        t += gap(3500, 8000)
        const followup = say('user', 'followup')
        hear(t, followup)
        t += llmTurn(t + 250, 'stop') + 300
        speak(t - 200, say('assistant', 'followup_answer'))
        t += gap(2500, 6000)
        hear(t, say('user', 'goodbye'))
        t += llmTurn(t + 250, 'stop', 0.02) + 300
        speak(t - 200, say('assistant', 'closing'))
        t += gap(800, 2500)
      }
    }
  } else {
    status = 'failed'
    resolved = 0
    endReason = 'sip_503'
    t = start + 2300
  }

  // The end of the call: summary, recording, webhook.
  const end = t
  const durationMs = end - start
  if (voice && outcome !== 'sip_failure') {
    const mins = Math.floor(durationMs / 60000)
    const secs = Math.round((durationMs % 60000) / 1000)
    log(end, 'call', 'info', `Call ended after ${mins}m ${secs}s (${endReason})`, {
      duration_ms: durationMs,
      end_reason: endReason,
      turns: messages.filter((m) => m.role === 'user').length,
    })
    if (tenant.recordingEnabled) {
      const bytes = Math.round(durationMs * (tenant.recordingFormat === 'wav' ? 16 : 2))
      log(end + 1200, 'call', 'info', `Recording saved as ${tenant.recordingFormat} (${(bytes / 1e6).toFixed(1)} MB), kept ${tenant.retentionDays} days`, {
        format: tenant.recordingFormat,
        size_bytes: bytes,
        retention_days: tenant.retentionDays,
      })
    }
  }
  if (voice && tenant.webhookUrl) {
    const at = end + 400
    if (rng.bool(0.03)) {
      const timeout = tenant.webhookTimeoutSeconds
      log(at + timeout * SECOND, 'webhook', 'warning', `call.ended delivery to ${tenant.webhookUrl} timed out after ${timeout} s; retrying`, { event: 'call.ended', attempt: 1, timeout_seconds: timeout })
      const delivered = rng.bool(0.7)
      log(at + timeout * SECOND + 30_000, 'webhook', delivered ? 'info' : 'error', delivered
        ? `call.ended delivered to ${tenant.webhookUrl} on retry (200)`
        : `call.ended delivery to ${tenant.webhookUrl} failed: HTTP 502 after 2 attempts`, { event: 'call.ended', attempt: 2, status: delivered ? 200 : 502 })
    } else {
      const latency = rng.int(60, 600)
      log(at, 'webhook', 'info', `call.ended delivered to ${tenant.webhookUrl} (200 in ${latency} ms)`, { event: 'call.ended', status: 200, latency_ms: latency })
    }
  }

  // Anything after the anchor has not happened yet: the conversation is still live.
  const live = end > anchor
  const lastMessageAt = messages.length > 0 ? (messages.at(-1)!.created_at as number) : start
  write.conversation({
    id: conversationId,
    tenant_id: tenant.id,
    agent_id: agent.id,
    squad_id: squad?.id ?? null,
    channel: voice ? 'voice' : 'chat',
    language,
    status: live ? 'active' : status,
    routing_strategy: strategy,
    wait_ms: waitMs,
    resolved: live ? null : resolved,
    user_id: userId,
    created_at: iso(start),
    updated_at: iso(Math.min(Math.max(lastMessageAt, start), anchor)),
    ended_at: live ? null : iso(end),
  })
  let position = 0
  for (const m of messages) {
    if ((m.created_at as number) > anchor) break
    write.message({ ...m, id: rng.uuid(), conversation_id: conversationId, position: position++, created_at: iso(m.created_at as number) })
  }
  if (callId) {
    write.call({
      id: callId,
      tenant_id: tenant.id,
      agent_id: agent.id,
      conversation_id: conversationId,
      sip_trunk_id: trunk?.id ?? null,
      direction: direction === 'outbound' ? 'outbound' : 'inbound',
      from_number: from,
      to_number: to,
      status: live ? 'in_progress' : outcome === 'sip_failure' || status === 'failed' ? 'failed' : 'completed',
      end_reason: live ? null : endReason,
      started_at: iso(start),
      answered_at: outcome === 'sip_failure' ? null : iso(start + 300 + (waitMs ?? 0)),
      ended_at: live ? null : iso(end),
      duration_ms: live ? null : durationMs,
    })
  }
  if (transferred && (transferred.row.requested_at as string) <= iso(anchor)) write.transfer(transferred.row)

  let written = 0
  events.sort((a, b) => a.t - b.t)
  for (const e of events) {
    if (e.t > anchor) break
    write.log({
      id: rng.uuid(),
      tenant_id: tenant.id,
      log_type: e.type,
      log_level: e.level,
      message: e.message,
      timestamp: iso(e.t),
      agent_id: agent.id,
      session_id: conversationId,
      call_id: callId,
      details: JSON.stringify(e.details),
      user_id: userId,
      trace_id: traceId,
      request_id: e.requestId,
    })
    written++
  }
  return written
}

function waitFor(rng: Rng, strategy: string): number {
  const mean = { least_busy: 1800, skills_based: 4200, language_match: 3600, priority: 2600, round_robin: 5200 }[strategy] ?? 4000
  return Math.round(rng.around(mean, mean * 0.5, 200, 45_000))
}

/** A transfer's row and what the conversation's story needs from it. */
interface Transfer {
  row: Row
  ok: boolean
  /** When the receiving agent took over or the attempt was given up (ms). */
  completedAt: number
}

function transfer(
  ctx: StoryContext,
  p: Participants,
  colleagues: SeedAgent[],
  conversationId: string,
  language: string,
  escalation: boolean,
  at: number,
  log: (t: number, type: string, level: string, message: string, details: Row) => void,
): Transfer {
  const { rng } = ctx
  const reason = escalation
    ? 'escalation'
    : rng.weighted(['language', 'skill', 'customer_request', 'overflow', 'after_hours'], [25, 25, 25, 15, 10])
  const speakers = colleagues.filter((c) => c.languages.includes(language))
  const to = rng.pick(reason === 'language' && speakers.length > 0 ? speakers : colleagues)
  const ok = rng.bool(reason === 'after_hours' ? 0.55 : 0.84)
  const latency = ok ? Math.round(rng.around(2600, 1400, 400, 9000)) : rng.int(12_000, 30_000)
  log(at, 'transfer', 'info', `Transfer requested to ${to.name} (reason: ${reason})`, {
    to_agent_id: to.id,
    reason,
    squad_id: p.squad!.id,
  })
  log(at + latency, 'transfer', ok ? 'info' : 'error', ok
    ? `Transfer to ${to.name} completed in ${seconds(latency)} s`
    : `Transfer to ${to.name} failed after ${seconds(latency)} s: no answer`, {
    to_agent_id: to.id,
    outcome: ok ? 'success' : 'failed',
    latency_ms: latency,
  })
  return {
    ok,
    completedAt: at + latency,
    row: {
      id: rng.uuid(),
      tenant_id: p.tenant.id,
      squad_id: p.squad!.id,
      conversation_id: conversationId,
      from_agent_id: p.agent.id,
      to_agent_id: to.id,
      reason,
      outcome: ok ? 'success' : 'failed',
      latency_ms: latency,
      requested_at: iso(at),
    },
  }
}
