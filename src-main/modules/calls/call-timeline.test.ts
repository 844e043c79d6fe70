import { describe, expect, it } from 'vitest'
import { deriveTimeline, percentile, type TimelineLine, type TimelineMessage } from './call-timeline'

/*
 * The rules of docs/api.md ("Call detail") on lines written as the demo data and real backends write
 * them: a German call of the large demo set copied line for line, then the same call with details
 * missing, shuffled, garbled, and calls in Arabic and Hebrew.
 */

let n = 0
const line = (timestamp: string, log_type: string, log_level: string, message: string, details: Record<string, unknown> = {}, request_id: string | null = null): TimelineLine => ({
  id: `l${String(++n).padStart(2, '0')}`,
  timestamp,
  log_type,
  log_level,
  message,
  details,
  request_id,
})
const at = (iso: string) => Date.parse(iso)

/** A call of .bench-data/large.sqlite (three turns, a tool round, a slow LLM response), request ids as the seed writes them. */
function germanCall(withRequestIds = true): TimelineLine[] {
  n = 0
  const r = (id: string) => (withRequestIds ? id : null)
  return [
    line('2026-10-26T13:11:38.026Z', 'call', 'info', 'Web call started in room call-w5ofMLp2ej', { direction: 'web', from: 'webrtc:usr_LDbLBrwMUk', to: 'room:call-w5ofMLp2ej', sip_trunk_id: null }),
    line('2026-10-26T13:11:45.077Z', 'call', 'info', 'Agent Jonas · Claims joined room call-w5ofMLp2ej', { room: 'call-w5ofMLp2ej', agent_id: 'agent-jonas', squad_id: 'squad-1', routing_strategy: 'skills_based', wait_ms: 6751 }),
    line('2026-10-26T13:11:45.127Z', 'stt', 'debug', 'STT stream opened: deepgram/nova-3 (de)', { provider: 'deepgram', model: 'nova-3', language: 'de' }),
    line('2026-10-26T13:11:45.916Z', 'tts', 'debug', 'TTS 105 chars via openai/gpt-4o-mini-tts in 235 ms', { characters: 105, latency_ms: 235 }),
    line('2026-10-26T13:11:51.037Z', 'stt', 'info', 'Final transcript (0.93): "Hallo, ich würde mich gern für den Kurs LAW-105 anmelden. S…"', { language: 'de', confidence: 0.93, words: 15, audio_ms: 3402 }),
    line('2026-10-26T13:11:51.287Z', 'llm', 'debug', 'LLM request openai/gpt-4.1-mini', { input_tokens: 585 }, r('req_a')),
    line('2026-10-26T13:11:53.730Z', 'llm', 'warning', 'Slow LLM response: 2443 ms (threshold 1500 ms)', { latency_ms: 2443, time_to_first_token_ms: 1099, finish_reason: 'tool_calls' }, r('req_a')),
    line('2026-10-26T13:11:53.780Z', 'tts', 'debug', 'TTS 57 chars via openai/gpt-4o-mini-tts in 93 ms', { characters: 57, latency_ms: 93 }),
    line('2026-10-26T13:11:53.800Z', 'tool', 'info', 'Calling tool enroll_student', { tool: 'enroll_student', tool_call_id: 'call_B1EQ', arguments: { student_name: 'Laura Schneider' } }, r('req_t')),
    line('2026-10-26T13:11:54.646Z', 'tool', 'info', 'Tool enroll_student returned in 866 ms', { tool: 'enroll_student', status: 'ok', latency_ms: 866 }, r('req_t')),
    line('2026-10-26T13:11:54.676Z', 'llm', 'debug', 'LLM request openai/gpt-4.1-mini', { input_tokens: 618 }, r('req_b')),
    line('2026-10-26T13:11:55.156Z', 'llm', 'info', 'LLM response in 480 ms (stop)', { latency_ms: 480, time_to_first_token_ms: 216 }, r('req_b')),
    line('2026-10-26T13:11:55.176Z', 'tts', 'debug', 'TTS 119 chars via openai/gpt-4o-mini-tts in 168 ms', { characters: 119, latency_ms: 168 }),
    line('2026-10-26T13:12:02.975Z', 'stt', 'info', 'Final transcript (0.9): "Muss ich vorher irgendwelche Materialien kaufen?"', { confidence: 0.9, audio_ms: 3406 }),
    line('2026-10-26T13:12:03.225Z', 'llm', 'debug', 'LLM request openai/gpt-4.1-mini', { input_tokens: 753 }, r('req_c')),
    // The seed's TTS starts on the first tokens, before the response line.
    line('2026-10-26T13:12:03.603Z', 'tts', 'debug', 'TTS 97 chars via openai/gpt-4o-mini-tts in 280 ms', { characters: 97, latency_ms: 280 }),
    line('2026-10-26T13:12:03.753Z', 'llm', 'info', 'LLM response in 528 ms (stop)', { latency_ms: 528, time_to_first_token_ms: 238 }, r('req_c')),
    line('2026-10-26T13:12:08.115Z', 'stt', 'info', 'Final transcript (0.94): "Perfekt, vielen Dank."', { confidence: 0.94, audio_ms: 4522 }),
    line('2026-10-26T13:12:08.365Z', 'llm', 'debug', 'LLM request openai/gpt-4.1-mini', { input_tokens: 898 }, r('req_d')),
    line('2026-10-26T13:12:08.760Z', 'tts', 'debug', 'TTS 39 chars via openai/gpt-4o-mini-tts in 290 ms', { characters: 39, latency_ms: 290 }),
    line('2026-10-26T13:12:08.910Z', 'llm', 'info', 'LLM response in 545 ms (stop)', { latency_ms: 545, time_to_first_token_ms: 245 }, r('req_d')),
    line('2026-10-26T13:12:10.831Z', 'call', 'info', 'Call ended after 0m 33s (caller_hangup)', { duration_ms: 32805, end_reason: 'caller_hangup', turns: 3 }),
    line('2026-10-26T13:12:11.231Z', 'webhook', 'info', 'call.ended delivered to https://hooks.example/voice/events (200 in 201 ms)', { event: 'call.ended', status: 200, latency_ms: 201 }),
    line('2026-10-26T13:12:12.031Z', 'call', 'info', 'Recording saved as mp3 (0.1 MB), kept 90 days', { format: 'mp3', size_bytes: 65610, retention_days: 90 }),
  ]
}

const germanMessages: TimelineMessage[] = [
  { id: 'greeting', role: 'assistant', content: 'Guten Tag, hier ist Jonas.', created_at: '2026-10-26T13:11:46.116Z' },
  { id: 'u1', role: 'user', content: 'Hallo, ich würde mich gern für den Kurs LAW-105 anmelden. Sind noch Plätze frei?', created_at: '2026-10-26T13:11:51.037Z' },
  { id: 'a1', role: 'assistant', content: 'Einen Moment, ich melde Sie an.', created_at: '2026-10-26T13:11:53.980Z' },
  { id: 'tool1', role: 'tool', content: '', created_at: '2026-10-26T13:11:54.646Z' },
  { id: 'a2', role: 'assistant', content: 'Sie sind angemeldet.', created_at: '2026-10-26T13:11:55.376Z' },
  // Stamped 300 ms before its transcript line (another system's clock): still of turn 2.
  { id: 'u2', role: 'user', content: 'Muss ich vorher irgendwelche Materialien kaufen?', created_at: '2026-10-26T13:12:02.675Z' },
  { id: 'a3', role: 'assistant', content: 'Nein.', created_at: '2026-10-26T13:12:03.803Z' },
  { id: 'u3', role: 'user', content: 'Perfekt, vielen Dank.', created_at: '2026-10-26T13:12:08.115Z' },
  { id: 'a4', role: 'assistant', content: 'Gern, auf Wiederhören.', created_at: '2026-10-26T13:12:08.960Z' },
  { id: 'late', role: 'system', content: 'summary', created_at: '2026-10-26T13:12:20.000Z' },
]

describe('deriveTimeline on a real call', () => {
  const lines = germanCall()
  const t = deriveTimeline(lines, germanMessages, '2026-10-26T13:11:38.026Z')
  const ids = (kind: string) => t.spans.filter((s) => s.kind === kind)

  it('pairs LLM requests with their responses and tool calls with their results', () => {
    expect(t.spans).toHaveLength(24 - 4 - 1)
    expect(ids('llm').map((s) => [s.start, s.end, s.latency_ms, s.time_to_first_token_ms, s.level, s.line_ids.length])).toEqual([
      [at('2026-10-26T13:11:51.287Z'), at('2026-10-26T13:11:53.730Z'), 2443, 1099, 'warning', 2],
      [at('2026-10-26T13:11:54.676Z'), at('2026-10-26T13:11:55.156Z'), 480, 216, 'info', 2],
      [at('2026-10-26T13:12:03.225Z'), at('2026-10-26T13:12:03.753Z'), 528, 238, 'info', 2],
      [at('2026-10-26T13:12:08.365Z'), at('2026-10-26T13:12:08.910Z'), 545, 245, 'info', 2],
    ])
    expect(ids('tool').map((s) => [s.label, s.start, s.end, s.latency_ms, s.unfinished])).toEqual([
      ['Calling tool enroll_student', at('2026-10-26T13:11:53.800Z'), at('2026-10-26T13:11:54.646Z'), 866, false],
    ])
  })

  it('draws a TTS line as its synthesis before it, a transcript as the audio it heard, the rest as instants', () => {
    expect(ids('tts')[0]).toMatchObject({ start: at('2026-10-26T13:11:45.916Z') - 235, end: at('2026-10-26T13:11:45.916Z'), latency_ms: 235 })
    const heard = ids('stt').filter((s) => s.label.startsWith('Final'))
    expect(heard.map((s) => s.end - s.start)).toEqual([3402, 3406, 4522])
    expect(ids('stt')[0]).toMatchObject({ label: 'STT stream opened: deepgram/nova-3 (de)', start: at('2026-10-26T13:11:45.127Z'), end: at('2026-10-26T13:11:45.127Z'), latency_ms: null })
    expect(ids('webhook')[0]).toMatchObject({ latency_ms: 201, end: at('2026-10-26T13:12:11.231Z'), start: at('2026-10-26T13:12:11.231Z') - 201 })
    expect(t.start).toBe(at('2026-10-26T13:11:38.026Z'))
    expect(t.end).toBe(at('2026-10-26T13:12:12.031Z'))
    expect(t.notes).toEqual([])
  })

  it('measures each turn from the transcript line to the first TTS line after it', () => {
    expect(t.turns.map((x) => [x.number, x.latency_ms, x.stt_line_id, x.tts_line_id, x.note])).toEqual([
      [1, 2743, 'l05', 'l08', null],
      [2, 628, 'l14', 'l16', null],
      [3, 645, 'l18', 'l20', null],
    ])
    expect(t.turnLatency).toEqual({ count: 3, median_ms: 645, p90_ms: 2323 })
    // A turn's lines run to the next transcript; the last one's to the call-end line.
    expect(t.turns[0]!.line_ids).toEqual(['l05', 'l06', 'l07', 'l08', 'l09', 'l10', 'l11', 'l12', 'l13'])
    expect(t.turns[2]!.line_ids).toEqual(['l18', 'l19', 'l20', 'l21'])
    expect(t.lines.filter((l) => l.turn === null).map((l) => l.line.id)).toEqual(['l01', 'l02', 'l03', 'l04', 'l22', 'l23', 'l24'])
    expect(t.spans.find((s) => s.kind === 'tool')!.turn).toBe(1)
  })

  it('gives each message its turn, and the caller text from the user message', () => {
    expect(Object.fromEntries(t.messageTurns)).toEqual({ greeting: null, u1: 1, a1: 1, tool1: 1, a2: 1, u2: 2, a3: 2, u3: 3, a4: 3, late: null })
    expect(t.turns[0]!.caller_text).toBe('Hallo, ich würde mich gern für den Kurs LAW-105 anmelden. Sind noch Plätze frei?')
    expect(t.turns[1]!.message_ids).toEqual(['u2', 'a3'])
  })

  it('gives the same spans and turns for lines in any order, and pairs in order without request ids', () => {
    const shuffled = [...lines].sort((a, b) => (a.id.charCodeAt(2) * 7919) % 31 - (b.id.charCodeAt(2) * 7919) % 31 || b.id.localeCompare(a.id))
    expect(shuffled.map((l) => l.id)).not.toEqual(lines.map((l) => l.id))
    const again = deriveTimeline(shuffled, germanMessages, '2026-10-26T13:11:38.026Z')
    expect(again.spans).toEqual(t.spans)
    expect(again.turns).toEqual(t.turns)
    const bare = deriveTimeline(germanCall(false), germanMessages, null)
    expect(bare.spans.map((s) => [s.kind, s.start, s.end, s.latency_ms])).toEqual(t.spans.map((s) => [s.kind, s.start, s.end, s.latency_ms]))
    expect(bare.start).toBe(at('2026-10-26T13:11:38.026Z'))
  })
})

describe('deriveTimeline when the data lacks things', () => {
  it('says what is missing instead of guessing, and never throws on odd details', () => {
    n = 0
    const lines = [
      line('2026-11-01T10:00:00.000Z', 'stt', 'info', 'Final transcript: "hello"', {}),
      // A response without its request: it covers the latency it reports.
      line('2026-11-01T10:00:01.000Z', 'llm', 'info', 'LLM response', { latency_ms: '400' }),
      line('2026-11-01T10:00:01.100Z', 'tts', 'debug', 'TTS', { latency_ms: -5 }),
      line('2026-11-01T10:00:03.000Z', 'stt', 'info', 'Final transcript: "are you there?"', { audio_ms: 'long' }),
      // A request whose response never came.
      line('2026-11-01T10:00:03.200Z', 'llm', 'debug', 'LLM request', { latency_ms: null, time_to_first_token_ms: { odd: true } }),
      line('2026-11-01T10:00:04.000Z', 'stt', 'info', 'partial', { transcript: 'hel', is_final: false }),
      line('not a time', 'tts', 'debug', 'TTS', { latency_ms: 100 }),
      line('2026-11-01T10:00:05.000Z', 'call', 'info', 'Call ended', { end_reason: 'caller_hangup' }),
    ]
    const t = deriveTimeline(lines, [], null)
    expect(t.spans.map((s) => [s.kind, s.end - s.start, s.latency_ms, s.unfinished])).toEqual([
      ['stt', 0, null, false],
      ['llm', 400, 400, false],
      ['tts', 0, null, false],
      ['stt', 0, null, false],
      ['llm', 0, null, true],
      ['stt', 0, null, false],
      ['call', 0, null, false],
    ])
    // The partial transcript is no turn; the second turn heard no TTS before the call ended.
    expect(t.turns.map((x) => [x.latency_ms, x.note])).toEqual([
      [1100, null],
      [null, 'No TTS line before the call ended'],
    ])
    expect(t.turnLatency).toEqual({ count: 1, median_ms: 1100, p90_ms: 1100 })
    expect(t.notes).toEqual([
      '1 line has an unreadable timestamp and is left out of the timeline.',
      '1 llm span has no closing line (no latency_ms or error after it): shown up to its last line.',
      '1 TTS line has no details.latency_ms: shown as an instant.',
      '2 STT transcripts have no details.audio_ms: shown as instants.',
    ])
    expect(t.lines).toHaveLength(7)
    expect(t.lines.every((l) => t.spans[l.span]!.line_ids.includes(l.line.id))).toBe(true)
  })

  it('keeps a timed-out request, its retry warning and its failure in one span marked as an error', () => {
    n = 0
    const lines = [
      line('2026-11-01T10:00:00.000Z', 'llm', 'debug', 'LLM request openai/gpt-4.1', { input_tokens: 520 }, 'req_x'),
      line('2026-11-01T10:00:10.000Z', 'llm', 'warning', 'LLM request timed out after 10000 ms, retrying (1/2)', { timeout_ms: 10000 }, 'req_x'),
      line('2026-11-01T10:00:20.000Z', 'llm', 'error', 'LLM request failed after 2 attempts: openai timeout', { error: 'timeout' }, 'req_x'),
      line('2026-11-01T10:00:20.050Z', 'call', 'error', 'Call failed: language model unavailable', { end_reason: 'llm_unavailable' }),
    ]
    const t = deriveTimeline(lines, [], null)
    expect(t.spans[0]).toMatchObject({ kind: 'llm', latency_ms: 20_000, level: 'error', error: true, unfinished: false, line_ids: ['l01', 'l02', 'l03'] })
    expect(t.spans[1]).toMatchObject({ kind: 'call', error: true })
    expect(t.notes).toEqual(['No STT final transcript lines: no turns, so no response latencies.'])
  })

  it('pairs interleaved tools by name, and a new request leaves the one before it unfinished', () => {
    n = 0
    const lines = [
      line('2026-11-01T10:00:00.000Z', 'tool', 'info', 'Calling tool a', { tool: 'a' }),
      line('2026-11-01T10:00:00.100Z', 'tool', 'info', 'Calling tool b', { tool: 'b' }),
      line('2026-11-01T10:00:00.300Z', 'tool', 'info', 'Tool b returned', { tool: 'b', latency_ms: 200 }),
      line('2026-11-01T10:00:00.900Z', 'tool', 'error', 'Tool a failed', { tool: 'a', error: { code: 'E' } }),
      line('2026-11-01T10:00:01.000Z', 'llm', 'debug', 'LLM request 1'),
      line('2026-11-01T10:00:02.000Z', 'llm', 'debug', 'LLM request 2'),
      line('2026-11-01T10:00:02.500Z', 'llm', 'info', 'LLM response', { latency_ms: 500 }),
    ]
    const t = deriveTimeline(lines, [], null)
    expect(t.spans.map((s) => [s.label, s.line_ids, s.latency_ms, s.error, s.unfinished])).toEqual([
      ['Calling tool a', ['l01', 'l04'], 900, true, false],
      ['Calling tool b', ['l02', 'l03'], 200, false, false],
      ['LLM request 1', ['l05'], null, false, true],
      ['LLM request 2', ['l06', 'l07'], 500, false, false],
    ])
  })

  it('has nothing to say about a call without lines', () => {
    const t = deriveTimeline([], [], '2026-11-01T10:00:00.000Z')
    expect(t).toMatchObject({ spans: [], turns: [], notes: [], start: at('2026-11-01T10:00:00.000Z'), end: null, turnLatency: { count: 0, median_ms: null, p90_ms: null } })
  })
})

describe('deriveTimeline on right-to-left calls', () => {
  it('reads Arabic and Hebrew transcripts and messages as they are', () => {
    n = 0
    const lines = [
      line('2026-11-01T10:00:02.000Z', 'stt', 'info', 'Final transcript (0.91): "مرحبًا، طلبي رقم 5416031 لم يصلني"', { language: 'ar', audio_ms: 2000 }),
      line('2026-11-01T10:00:02.700Z', 'tts', 'debug', 'TTS 33 chars', { latency_ms: 150, text: 'لحظة من فضلك' }),
      // A backend that logs the text under details.transcript, and no "transcript" in its message.
      line('2026-11-01T10:00:06.000Z', 'stt', 'info', 'STT final', { transcript: 'שלום, אני רוצה לבטל את ההזמנה', language: 'he', is_final: true }),
      line('2026-11-01T10:00:06.450Z', 'tts', 'debug', 'TTS', { latency_ms: 120 }),
    ]
    const messages: TimelineMessage[] = [{ id: 'u1', role: 'user', content: 'مرحبًا، طلبي رقم 5416031 لم يصلني حتى الآن', created_at: '2026-11-01T10:00:02.000Z' }]
    const t = deriveTimeline(lines, messages, null)
    expect(t.turns.map((x) => [x.caller_text, x.latency_ms])).toEqual([
      ['مرحبًا، طلبي رقم 5416031 لم يصلني حتى الآن', 700],
      ['שלום, אני רוצה לבטל את ההזמנה', 450],
    ])
    expect(t.turnLatency).toEqual({ count: 2, median_ms: 575, p90_ms: 675 })
    expect(t.spans[0]!.label).toBe('Final transcript (0.91): "مرحبًا، طلبي رقم 5416031 لم يصلني"')
    expect(t.spans[2]).toMatchObject({ kind: 'stt', start: at('2026-11-01T10:00:06.000Z'), end: at('2026-11-01T10:00:06.000Z') })
  })
})

describe('percentile', () => {
  it('interpolates between the closest ranks', () => {
    expect(percentile([], 0.5)).toBeNull()
    expect(percentile([7], 0.9)).toBe(7)
    expect(percentile([200, 100], 0.5)).toBe(150)
    expect(percentile([300, 100, 200], 0.9)).toBe(280)
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9)
    expect(percentile([628, 645, 2743], 0.5)).toBe(645)
  })
})
