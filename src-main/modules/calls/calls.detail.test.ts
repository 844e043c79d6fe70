import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, insertParents, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { NotFoundError } from '../../kit/errors'
import { createCallsService } from './calls.service'

/*
 * calls.get against a real store: a call with its row, session and transfer record; a call known
 * only from its lines (a pull from a backend whose calls are not here); who may see which.
 */

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const OTHER: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k2' }
const LINES_ONLY = 'call_pulled_7'

let handle: DatabaseHandle
let service: ReturnType<typeof createCallsService>
let seq = 0
const log = (timestamp: string, log_type: string, message: string, details: Record<string, unknown> = {}, o: Record<string, unknown> = {}) =>
  insert(handle, 'call_logs', rows.callLog({ id: `line-${++seq}`, call_id: IDS.call, session_id: IDS.conversation, trace_id: 'trace-1', timestamp, log_type, message, details: JSON.stringify(details), ...o }))

beforeEach(async () => {
  seq = 0
  handle = await migratedDb()
  service = createCallsService(handle.db)
  insertParents(handle)
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  handle.sqlite.prepare('update conversations set language = ?, squad_id = ? where id = ?').run('he', IDS.squad, IDS.conversation)
  insert(handle, 'calls', rows.call({ conversation_id: IDS.conversation, agent_id: IDS.agent, status: 'completed', end_reason: 'transferred', ended_at: '2026-11-01T10:00:20.000Z', duration_ms: 20_000 }))
  insert(handle, 'messages', rows.message({ id: 'm0', position: 0, role: 'assistant', content: 'שלום, כאן אריה', language: 'he', created_at: '2026-11-01T10:00:01.000Z' }))
  insert(handle, 'messages', rows.message({ id: 'm1', position: 1, role: 'user', content: 'אני רוצה לבטל את ההזמנה שלי', language: 'he', created_at: '2026-11-01T10:00:05.000Z' }))
  insert(handle, 'transfers', rows.transfer({ requested_at: '2026-11-01T10:00:08.000Z', latency_ms: 1500 }))
  log('2026-11-01T10:00:00.000Z', 'call', 'Inbound call from +15550100 to +15550199', { direction: 'inbound', from: '+15550100', to: '+15550199' })
  log('2026-11-01T10:00:00.500Z', 'call', 'Agent Aria joined room r1', { agent_id: IDS.agent, squad_id: IDS.squad, wait_ms: 480 })
  log('2026-11-01T10:00:05.000Z', 'stt', 'Final transcript (0.9): "אני רוצה לבטל את ההז…"', { audio_ms: 2100, language: 'he' })
  log('2026-11-01T10:00:05.300Z', 'llm', 'LLM request', {}, { request_id: 'r1', log_level: 'debug' })
  log('2026-11-01T10:00:05.800Z', 'llm', 'LLM response in 500 ms', { latency_ms: 500 }, { request_id: 'r1' })
  log('2026-11-01T10:00:05.900Z', 'tts', 'TTS 40 chars in 150 ms', { latency_ms: 150 })
  log('2026-11-01T10:00:08.000Z', 'transfer', 'Transfer requested to Mateo', { to_agent_id: IDS.agent2, reason: 'language' })
  log('2026-11-01T10:00:09.500Z', 'transfer', 'Transfer to Mateo completed in 1.5 s', { to_agent_id: IDS.agent2, outcome: 'success', latency_ms: 1500 })
  log('2026-11-01T10:00:20.000Z', 'call', 'Call ended after 0m 20s (transferred)', { end_reason: 'transferred', duration_ms: 20_000 })
  log('2026-11-01T10:00:21.000Z', 'call', 'Recording saved as mp3 (0.1 MB), kept 30 days', { format: 'mp3', size_bytes: 40_000, retention_days: 30 })
  // Lines of a call this store has no row for, in the other tenant.
  const pulled = { call_id: LINES_ONLY, tenant_id: IDS.otherTenant, session_id: 'conv-remote', agent_id: 'agent_remote', trace_id: null }
  log('2026-11-02T09:00:00.000Z', 'call', 'Outbound call', { direction: 'outbound', from: '+4930111', to: '+972501234567' }, pulled)
  log('2026-11-02T09:00:04.000Z', 'stt', 'Final transcript', { transcript: 'مرحبا' }, pulled)
  log('2026-11-02T09:00:04.900Z', 'tts', 'TTS', {}, pulled)
  log('2026-11-02T09:00:04.950Z', 'transfer', 'Transfer requested', { to_agent_id: 'agent_b' }, pulled)
  log('2026-11-02T09:00:30.000Z', 'transfer', 'Transfer failed: no answer', { to_agent_id: 'agent_b' }, { ...pulled, log_level: 'error' })
  log('2026-11-02T09:00:31.000Z', 'call', 'Call ended (transfer_failed)', { end_reason: 'transfer_failed' }, pulled)
})
afterEach(() => handle.close())

describe('calls.get', () => {
  it('builds the page of a call with its row, session, transfer record and recording', async () => {
    const d = await service.get(TENANT, IDS.call)
    expect(d.call).toMatchObject({ source: 'call_record', tenant_name: 'Acme', agent_name: 'Aria', squad_id: IDS.squad, squad_name: 'Desk', status: 'completed', end_reason: 'transferred', duration_ms: 20_000, wait_ms: 480, from_number: '+15550100' })
    expect(d.lines.map((l) => l.id)).toEqual(['line-1', 'line-2', 'line-3', 'line-4', 'line-5', 'line-6', 'line-7', 'line-8', 'line-9', 'line-10'])
    expect(d.lines_total).toBe(10)
    expect(d.spans.map((s) => [s.kind, s.start_ms, s.end_ms, s.latency_ms])).toEqual([
      ['call', 0, 0, null],
      ['call', 500, 500, null],
      ['stt', 2900, 5000, null],
      ['llm', 5300, 5800, 500],
      ['tts', 5750, 5900, 150],
      ['transfer', 8000, 9500, 1500],
      ['call', 20_000, 20_000, null],
      ['call', 21_000, 21_000, null],
    ])
    expect(d.turns).toMatchObject([{ number: 1, latency_ms: 900, caller_text: 'אני רוצה לבטל את ההזמנה שלי', message_ids: ['m1'] }])
    expect(d.turn_latency).toEqual({ count: 1, median_ms: 900, p90_ms: 900 })
    expect(d.transcript.map((m) => [m.id, m.turn, m.content])).toEqual([
      ['m0', null, 'שלום, כאן אריה'],
      ['m1', 1, 'אני רוצה לבטל את ההזמנה שלי'],
    ])
    expect(d.transfers).toEqual([
      { from_agent_id: IDS.agent, from_agent_name: 'Aria', to_agent_id: IDS.agent2, to_agent_name: 'Mateo', reason: 'language', outcome: 'success', latency_ms: 1500, requested_at: '2026-11-01T10:00:08.000Z', source: 'transfers' },
    ])
    expect(d.recording).toEqual({ format: 'mp3', size_bytes: 40_000, retention_days: 30, url: null, saved_at: '2026-11-01T10:00:21.000Z', line_id: 'line-10' })
    expect(d.links).toEqual({ session_id: IDS.conversation, session_in_store: true, trace_ids: ['trace-1'] })
    expect(d.missing).toEqual([])
  })

  it('builds the page of a call known only from its lines, saying so', async () => {
    const d = await service.get(OTHER, LINES_ONLY)
    expect(d.call).toEqual({
      id: LINES_ONLY, source: 'log_lines', tenant_id: IDS.otherTenant, tenant_name: 'Globex', agent_id: 'agent_remote', agent_name: null, conversation_id: 'conv-remote',
      squad_id: null, squad_name: null, sip_trunk_id: null, direction: 'outbound', from_number: '+4930111', to_number: '+972501234567', status: null,
      end_reason: 'transfer_failed', started_at: '2026-11-02T09:00:00.000Z', answered_at: null, ended_at: '2026-11-02T09:00:31.000Z', duration_ms: 31_000, wait_ms: null,
    })
    expect(d.turns).toMatchObject([{ caller_text: 'مرحبا', latency_ms: 900 }])
    expect(d.transfers).toEqual([
      { from_agent_id: 'agent_remote', from_agent_name: null, to_agent_id: 'agent_b', to_agent_name: null, reason: null, outcome: 'failed', latency_ms: 25_050, requested_at: '2026-11-02T09:00:04.950Z', source: 'log_lines' },
    ])
    expect(d.transcript).toEqual([])
    expect(d.links).toEqual({ session_id: 'conv-remote', session_in_store: false, trace_ids: [] })
    expect(d.missing).toEqual([
      'No call record in this store: the header is read from the log lines, and the status is unknown.',
      '1 TTS line has no details.latency_ms: shown as an instant.',
      '1 STT transcript has no details.audio_ms: shown as an instant.',
      'The session of this call is not in this store: no transcript.',
      'No recording line (a line about the recording with format, size_bytes, retention_days or url).',
    ])
  })

  it("answers Call not found for unknown ids and other tenants' calls, whichever way they are known", async () => {
    await expect(service.get(ADMIN, 'no-such-call')).rejects.toThrow(NotFoundError)
    await expect(service.get(OTHER, IDS.call)).rejects.toThrow('Call not found')
    await expect(service.get(TENANT, LINES_ONLY)).rejects.toThrow('Call not found')
    expect((await service.get(ADMIN, LINES_ONLY)).call.tenant_id).toBe(IDS.otherTenant)
  })

  it('reads a call row without any line', async () => {
    handle.sqlite.prepare('delete from call_logs where call_id = ?').run(IDS.call)
    const d = await service.get(ADMIN, IDS.call)
    expect(d).toMatchObject({ lines: [], spans: [], turns: [], recording: null, timeline_start: rows.call().started_at, timeline_end: null })
    expect(d.missing).toEqual(['No log lines for this call: no timeline, turns or recording.'])
    expect(d.transcript).toHaveLength(2)
  })
})
