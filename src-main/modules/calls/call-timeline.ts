import type { LogLevel } from '../../../src-shared/constants'
import { detailNumber, detailText, isFinalTranscript, isCallEnd } from './call-line-facts'

/*
 * From a call's log lines to the waterfall (spans) and the conversation's turns: pure, so every rule
 * of docs/api.md ("Call detail") is tested on lines written by hand (call-timeline.test.ts).
 *
 * Lines are taken in time order (timestamp, then the order given, which is storage order).
 * - llm, tool and transfer lines pair up: a line opens a span, a line with `details.latency_ms` or at
 *   level error/critical closes it, warnings in between (a timeout, a retry) stay in it. Lines pair
 *   when they share a request_id, else (without one) the tool's name (`details.tool`) or the transfer's
 *   target (`details.to_agent_id`); LLM lines without a request_id pair in order. A span whose closing
 *   line never comes is `unfinished` and ends at its last line.
 * - Any other line is a span of its own: an STT final transcript covers the audio it heard
 *   ([t − details.audio_ms, t]); a line reporting details.latency_ms (a TTS synthesis, a webhook
 *   delivery, a response without its request) covers [t − latency_ms, t]; anything else is an instant.
 * - A turn starts at each STT final transcript (the caller stopped speaking) and lasts until the next
 *   one, the last until the call-end line (a `call` line with details.end_reason). The agent started
 *   speaking at the turn's first TTS line; the turn's latency is the time between the two.
 */

export interface TimelineLine {
  id: string
  timestamp: string
  log_type: string
  log_level: string
  message: string
  details: Record<string, unknown>
  request_id: string | null
}

export interface TimelineMessage {
  id: string
  role: string
  content: string
  created_at: string
}

export interface Span {
  index: number
  kind: string
  label: string
  start: number
  end: number
  latency_ms: number | null
  time_to_first_token_ms: number | null
  level: LogLevel
  error: boolean
  unfinished: boolean
  line_ids: string[]
  turn: number | null
}

export interface Turn {
  number: number
  caller_stopped_at: number
  agent_started_at: number | null
  latency_ms: number | null
  caller_text: string | null
  stt_line_id: string
  tts_line_id: string | null
  line_ids: string[]
  message_ids: string[]
  note: string | null
}

export interface Timeline {
  /** The lines whose timestamp reads, in time order, with their span and turn. */
  lines: Array<{ line: TimelineLine; at: number; span: number; turn: number | null }>
  spans: Span[]
  turns: Turn[]
  turnLatency: { count: number; median_ms: number | null; p90_ms: number | null }
  /** The turn of each message (null: before the first turn or after the call ended). */
  messageTurns: Map<string, number | null>
  start: number | null
  end: number | null
  notes: string[]
}

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warning', 'error', 'critical']
const rank = (level: string) => Math.max(0, LEVELS.indexOf(level as LogLevel))
const PAIRED = new Set(['llm', 'tool', 'transfer'])
/** How far a message may be stamped before its turn's transcript line and still be of that turn. */
export const MESSAGE_GRACE_MS = 500

/** What pairs a line with its partner when it has no request_id (see the file's comment). */
function pairKey(line: TimelineLine): string {
  if (line.request_id) return `${line.log_type}\u0000r:${line.request_id}`
  const own = line.log_type === 'tool' ? detailText(line.details, 'tool') : line.log_type === 'transfer' ? detailText(line.details, 'to_agent_id') : null
  return `${line.log_type}\u0000k:${own ?? ''}`
}

interface Draft {
  kind: string
  lines: Array<{ line: TimelineLine; at: number }>
  /** Where it starts and ends when that is not its first and last line (a line alone reporting a duration). */
  start?: number
  end?: number
  closed: boolean
}

/** The spans of lines in time order: pairs for llm/tool/transfer, one line each for the rest. */
function buildSpans(sorted: Array<{ line: TimelineLine; at: number }>): Draft[] {
  const drafts: Draft[] = []
  const open = new Map<string, Draft>()
  for (const item of sorted) {
    const { line, at } = item
    const latency = detailNumber(line.details, 'latency_ms')
    if (!PAIRED.has(line.log_type)) {
      const heard = line.log_type === 'stt' && isFinalTranscript(line) ? detailNumber(line.details, 'audio_ms') : null
      const length = heard ?? latency
      drafts.push({ kind: line.log_type, lines: [item], start: length === null ? at : at - length, end: at, closed: true })
      continue
    }
    const key = pairKey(line)
    const current = open.get(key)
    const closes = latency !== null || rank(line.log_level) >= rank('error')
    if (closes) {
      if (current) {
        current.lines.push(item)
        current.closed = true
        open.delete(key)
      } else {
        drafts.push({ kind: line.log_type, lines: [item], start: latency === null ? at : at - latency, end: at, closed: true })
      }
    } else if (current && line.log_level === 'warning') {
      current.lines.push(item)
    } else {
      const draft: Draft = { kind: line.log_type, lines: [item], closed: false }
      drafts.push(draft)
      open.set(key, draft)
    }
  }
  return drafts
}

function toSpan(draft: Draft, index: number): Span {
  const first = draft.lines[0]!
  const last = draft.lines.at(-1)!
  const start = draft.start ?? first.at
  const end = draft.end ?? last.at
  const reported = [...draft.lines].reverse().map((l) => detailNumber(l.line.details, 'latency_ms')).find((v) => v !== null) ?? null
  const level = draft.lines.reduce<LogLevel>((worst, l) => (rank(l.line.log_level) > rank(worst) ? (l.line.log_level as LogLevel) : worst), 'debug')
  const ttft = draft.lines.map((l) => detailNumber(l.line.details, 'time_to_first_token_ms')).find((v) => v !== null) ?? null
  return {
    index,
    kind: draft.kind,
    label: first.line.message,
    start,
    end,
    latency_ms: reported !== null ? Math.round(reported) : draft.lines.length > 1 ? Math.round(end - start) : null,
    time_to_first_token_ms: ttft === null ? null : Math.round(ttft),
    level,
    error: rank(level) >= rank('error'),
    unfinished: !draft.closed,
    line_ids: draft.lines.map((l) => l.line.id),
    turn: null,
  }
}

/**
 * A percentile by linear interpolation between the closest ranks (PostgreSQL's percentile_cont,
 * numpy's default): the median of 100 and 200 is 150; p90 of 100, 200, 300 is 280. Rounded to the ms.
 */
export function percentile(values: number[], q: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const h = (sorted.length - 1) * q
  const low = Math.floor(h)
  const high = Math.min(low + 1, sorted.length - 1)
  return Math.round(sorted[low]! + (h - low) * (sorted[high]! - sorted[low]!))
}

/** Turns: each final transcript to the next (the last to the call-end line), with the first TTS line in it. */
function buildTurns(sorted: Array<{ line: TimelineLine; at: number }>): { turns: Turn[]; turnOf: Array<number | null> } {
  const starts = sorted.flatMap((l, i) => (l.line.log_type === 'stt' && isFinalTranscript(l.line) ? [i] : []))
  const turnOf: Array<number | null> = sorted.map(() => null)
  if (starts.length === 0) return { turns: [], turnOf }
  const lastStart = starts.at(-1)!
  const endLine = sorted.findIndex((l, i) => i > lastStart && isCallEnd(l.line))
  const turns = starts.map((from, k): Turn => {
    const to = k + 1 < starts.length ? starts[k + 1]! : endLine === -1 ? sorted.length : endLine
    const stt = sorted[from]!
    const tts = sorted.slice(from + 1, to).find((l) => l.line.log_type === 'tts') ?? null
    for (let i = from; i < to; i++) turnOf[i] = k + 1
    const heard = detailText(stt.line.details, 'transcript') ?? detailText(stt.line.details, 'text')
    return {
      number: k + 1,
      caller_stopped_at: stt.at,
      agent_started_at: tts?.at ?? null,
      latency_ms: tts ? tts.at - stt.at : null,
      caller_text: heard ?? stt.line.message,
      stt_line_id: stt.line.id,
      tts_line_id: tts?.line.id ?? null,
      line_ids: sorted.slice(from, to).map((l) => l.line.id),
      message_ids: [],
      note: tts ? null : k + 1 < starts.length ? 'No TTS line before the caller spoke again' : endLine === -1 ? 'No TTS line after it' : 'No TTS line before the call ended',
    }
  })
  return { turns, turnOf }
}

/**
 * Each message's turn: the last turn that started at most MESSAGE_GRACE_MS after it; none before the
 * first turn or after the call-end line. A turn's caller text becomes its first user message (the
 * transcript line's text is often clipped).
 */
function assignMessages(messages: TimelineMessage[], turns: Turn[], endAt: number | null): Map<string, number | null> {
  const result = new Map<string, number | null>()
  const quoted = new Set<number>()
  for (const m of messages) {
    const at = Date.parse(m.created_at)
    const turn = Number.isNaN(at) || (endAt !== null && at > endAt) ? undefined : turns.findLast((t) => t.caller_stopped_at <= at + MESSAGE_GRACE_MS)
    result.set(m.id, turn?.number ?? null)
    if (!turn) continue
    turn.message_ids.push(m.id)
    if (m.role === 'user' && !quoted.has(turn.number)) {
      quoted.add(turn.number)
      turn.caller_text = m.content
    }
  }
  return result
}

/** Notes on what the lines lack, for the page to say instead of guessing. */
function notesOn(sorted: Array<{ line: TimelineLine }>, spans: Span[], turns: Turn[], unreadable: number): string[] {
  const notes: string[] = []
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`
  if (unreadable > 0) notes.push(`${plural(unreadable, 'line has', 'lines have')} an unreadable timestamp and ${unreadable === 1 ? 'is' : 'are'} left out of the timeline.`)
  if (sorted.length > 0 && turns.length === 0) notes.push('No STT final transcript lines: no turns, so no response latencies.')
  if (turns.length > 0 && !sorted.some((l) => l.line.log_type === 'tts')) notes.push("No TTS lines: when the agent started speaking is unknown.")
  const unfinished = new Map<string, number>()
  for (const s of spans) if (s.unfinished) unfinished.set(s.kind, (unfinished.get(s.kind) ?? 0) + 1)
  for (const [kind, n] of unfinished) notes.push(`${plural(n, `${kind} span has`, `${kind} spans have`)} no closing line (no latency_ms or error after it): shown up to ${n === 1 ? 'its' : 'their'} last line.`)
  const ttsBare = sorted.filter((l) => l.line.log_type === 'tts' && detailNumber(l.line.details, 'latency_ms') === null).length
  if (ttsBare > 0) notes.push(`${plural(ttsBare, 'TTS line has', 'TTS lines have')} no details.latency_ms: shown as ${ttsBare === 1 ? 'an instant' : 'instants'}.`)
  const sttBare = sorted.filter((l) => l.line.log_type === 'stt' && isFinalTranscript(l.line) && detailNumber(l.line.details, 'audio_ms') === null).length
  if (sttBare > 0) notes.push(`${plural(sttBare, 'STT transcript has', 'STT transcripts have')} no details.audio_ms: shown as ${sttBare === 1 ? 'an instant' : 'instants'}.`)
  return notes
}

/** The whole derivation: spans, turns, their latencies and each message's turn. */
export function deriveTimeline(lines: TimelineLine[], messages: TimelineMessage[], callStart: string | null): Timeline {
  const readable = lines.map((line, order) => ({ line, at: Date.parse(line.timestamp), order })).filter((l) => !Number.isNaN(l.at))
  const sorted = readable.sort((a, b) => a.at - b.at || a.order - b.order).map(({ line, at }) => ({ line, at }))
  const spans = buildSpans(sorted).map(toSpan)
  const { turns, turnOf } = buildTurns(sorted)
  const spanOf = new Map<string, number>()
  for (const s of spans) for (const id of s.line_ids) spanOf.set(id, s.index)
  const turnOfLine = new Map(sorted.map((l, i) => [l.line.id, turnOf[i]!]))
  for (const s of spans) s.turn = turnOfLine.get(s.line_ids[0]!) ?? null
  const endLine = sorted.findLast((l) => isCallEnd(l.line))
  const messageTurns = assignMessages(messages, turns, endLine?.at ?? null)
  const latencies = turns.flatMap((t) => (t.latency_ms === null ? [] : [t.latency_ms]))
  const starts = spans.map((s) => s.start)
  const begun = callStart === null ? Number.NaN : Date.parse(callStart)
  if (!Number.isNaN(begun)) starts.push(begun)
  return {
    lines: sorted.map((l, i) => ({ ...l, span: spanOf.get(l.line.id)!, turn: turnOf[i]! })),
    spans,
    turns,
    turnLatency: { count: latencies.length, median_ms: percentile(latencies, 0.5), p90_ms: percentile(latencies, 0.9) },
    messageTurns,
    start: starts.length ? Math.min(...starts) : null,
    end: spans.length ? Math.max(...spans.map((s) => s.end)) : null,
    notes: notesOn(sorted, spans, turns, lines.length - readable.length),
  }
}
