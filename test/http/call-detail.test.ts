import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallDetail } from '../../src-shared/schemas/call-detail'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * GET /calls/{call_id} (issue 16 pt 2) against the real listener and the demo store: the header,
 * lines, turn latencies and transcript are checked against SQL the test runs on the same file.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

const get = async (id: string, headers: Record<string, string> = bearer(ADMIN_TOKEN)) => {
  const response = await server.get(`/calls/${encodeURIComponent(id)}`, { headers })
  return { status: response.status, body: (await response.json()) as CallDetail & { detail?: unknown } }
}
const one = <T>(sql: string, ...params: unknown[]) => server.sqlite.prepare(sql).get(...params) as T
const pluck = <T>(sql: string, ...params: unknown[]) => server.sqlite.prepare(sql).pluck().all(...params) as T[]

/**
 * Each turn's latency in SQL, apart from the service's code: from an STT line with details.audio_ms
 * to the first TTS line at or after it and before the next such STT line, in ms.
 */
const turnLatencies = (callId: string) =>
  pluck<number | null>(
    `with s as (
       select seq, timestamp, lead(timestamp) over (order by timestamp, seq) as next_ts
       from call_logs where call_id = ? and log_type = 'stt' and json_extract(details, '$.audio_ms') is not null
     )
     select cast(round((julianday((select min(t.timestamp) from call_logs t where t.call_id = ? and t.log_type = 'tts'
              and t.timestamp >= s.timestamp and (s.next_ts is null or t.timestamp < s.next_ts))) - julianday(s.timestamp)) * 86400000) as integer)
     from s order by s.timestamp, s.seq`,
    callId,
    callId,
  )

/** A completed call of a squad session with a transfer record, two turns or more, in Arabic when the demo has one. */
const richCall = () =>
  one<{ id: string; conversation_id: string; tenant_id: string }>(
    `select c.id, c.conversation_id, c.tenant_id from calls c join conversations v on v.id = c.conversation_id
     where c.status = 'completed' and exists (select 1 from transfers t where t.conversation_id = v.id)
       and (select count(*) from messages m where m.conversation_id = v.id and m.role = 'user') >= 1
     order by v.language = 'ar' desc, c.started_at desc limit 1`,
  )
const chattyCall = () =>
  one<{ id: string }>(
    `select c.id from calls c join conversations v on v.id = c.conversation_id
     where c.status = 'completed' and (select count(*) from call_logs l where l.call_id = c.id and l.log_type = 'stt' and json_extract(l.details, '$.audio_ms') is not null) >= 3
     order by c.started_at desc limit 1`,
  )

describe('GET /calls/{call_id}', () => {
  it("answers a call's header, lines, spans and transcript as the store holds them", async () => {
    const call = richCall()
    const { status, body } = await get(call.id)
    expect(status).toBe(200)
    const row = one<Record<string, unknown>>('select * from calls where id = ?', call.id)
    expect(body.call).toMatchObject({ ...row, source: 'call_record' })
    expect(body.call.agent_name).toBe(one<{ name: string }>('select name from agents where id = ?', row.agent_id).name)
    expect(body.call.tenant_name).toBe(one<{ name: string }>('select name from tenants where id = ?', row.tenant_id).name)
    expect(body.lines.map((l) => l.id)).toEqual(pluck('select id from call_logs where call_id = ? order by timestamp, seq', call.id))
    expect(body.lines_total).toBe(body.lines.length)
    // Every line in exactly one span, and the spans in time order of their first line.
    expect(body.spans.flatMap((s) => s.line_ids).sort()).toEqual(body.lines.map((l) => l.id).sort())
    expect(body.spans.filter((s) => s.error).length).toBeLessThanOrEqual(body.lines.filter((l) => l.log_level === 'error' || l.log_level === 'critical').length)
    expect(body.transcript.map((m) => [m.id, m.content])).toEqual(server.sqlite.prepare('select id, content from messages where conversation_id = ? order by position').raw().all(call.conversation_id))
    const transfers = server.sqlite.prepare('select from_agent_id, to_agent_id, reason, outcome, latency_ms, requested_at from transfers where conversation_id = ? order by requested_at, id').all(call.conversation_id)
    expect(body.transfers.map(({ from_agent_id, to_agent_id, reason, outcome, latency_ms, requested_at }) => ({ from_agent_id, to_agent_id, reason, outcome, latency_ms, requested_at }))).toEqual(transfers)
    expect(body.links).toEqual({ session_id: call.conversation_id, session_in_store: true, trace_ids: pluck('select distinct trace_id from call_logs where call_id = ? and trace_id is not null', call.id) })
    const recording = one<{ id: string; details: string } | undefined>("select id, details from call_logs where call_id = ? and message like 'Recording saved%'", call.id)
    if (recording) expect(body.recording).toMatchObject({ ...JSON.parse(recording.details), line_id: recording.id })
    // The first user message opens turn 1, in whatever script the caller spoke.
    const firstUser = one<{ id: string; content: string }>("select id, content from messages where conversation_id = ? and role = 'user' order by position limit 1", call.conversation_id)
    expect(body.turns[0]).toMatchObject({ number: 1, caller_text: firstUser.content })
    expect(body.transcript.find((m) => m.id === firstUser.id)!.turn).toBe(1)
  })

  it('measures each turn as SQL does, with the median and p90 of the call', async () => {
    const { id } = chattyCall()
    const { body } = await get(id)
    const expected = turnLatencies(id)
    expect(expected.length).toBeGreaterThanOrEqual(3)
    expect(body.turns.map((t) => t.latency_ms)).toEqual(expected)
    const known = expected.filter((v): v is number => v !== null).sort((a, b) => a - b)
    const at = (q: number) => {
      const h = (known.length - 1) * q
      const low = Math.floor(h)
      return Math.round(known[low]! + (h - low) * (known[Math.min(low + 1, known.length - 1)]! - known[low]!))
    }
    expect(body.turn_latency).toEqual({ count: known.length, median_ms: at(0.5), p90_ms: at(0.9) })
  })

  it('builds a page from the lines alone for a call the store has no row for', async () => {
    const tenant = pluck<string>('select id from tenants order by id')[0]!
    const insert = server.sqlite.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp, call_id, details) values (?, ?, ?, ?, ?, ?, 'pulled-call-1', ?)")
    insert.run('pl-1', tenant, 'call', 'info', 'Inbound call', '2026-11-19T08:00:00.000Z', JSON.stringify({ direction: 'inbound', from: '+972501234567', to: '+15550100' }))
    insert.run('pl-2', tenant, 'stt', 'info', 'Final transcript: "שלום"', '2026-11-19T08:00:03.000Z', JSON.stringify({ audio_ms: 900 }))
    insert.run('pl-3', tenant, 'tts', 'debug', 'TTS', '2026-11-19T08:00:03.640Z', JSON.stringify({ latency_ms: 'n/a' }))
    insert.run('pl-4', tenant, 'call', 'info', 'Call ended', '2026-11-19T08:00:09.000Z', JSON.stringify({ end_reason: 'caller_hangup', duration_ms: 9000 }))
    const { status, body } = await get('pulled-call-1')
    expect(status).toBe(200)
    expect(body.call).toMatchObject({ source: 'log_lines', tenant_id: tenant, status: null, from_number: '+972501234567', end_reason: 'caller_hangup', duration_ms: 9000 })
    expect(body.turns.map((t) => [t.caller_text, t.latency_ms])).toEqual([['Final transcript: "שלום"', 640]])
    expect(body.missing).toContain('No call record in this store: the header is read from the log lines, and the status is unknown.')
    expect(body.missing).toContain('1 TTS line has no details.latency_ms: shown as an instant.')
  })

  it("shows a tenant token its tenant's calls only: any other is a 404 in the spec's error shape", async () => {
    const call = richCall()
    const own = await tokenFor(server, 'tenant', call.tenant_id)
    expect((await get(call.id, bearer(own))).status).toBe(200)
    const other = pluck<string>('select id from tenants where id != ? limit 1', call.tenant_id)[0]!
    const stranger = await tokenFor(server, 'tenant', other)
    expect(await get(call.id, bearer(stranger))).toEqual({ status: 404, body: { detail: 'Call not found' } })
    expect(await get('00000000-0000-4000-8000-000000000000')).toEqual({ status: 404, body: { detail: 'Call not found' } })
  })

  it('refuses an id too long with a 422 saying where, and no token with a 401', async () => {
    const long = await get('x'.repeat(256))
    expect(long.status).toBe(422)
    expect(long.body.detail).toEqual([expect.objectContaining({ type: 'string_too_long', loc: ['path', 'call_id'], ctx: { max_length: 255 } })])
    expect((await fetch(`${server.url}/calls/${richCall().id}`)).status).toBe(401)
  })

  it('finds a call by its id in any UUID spelling, as the other paths do', async () => {
    const { id } = richCall()
    const { status, body } = await get(id.toUpperCase())
    expect(status).toBe(200)
    expect(body.call.id).toBe(id)
  })

  it('answers tRPC calls.get the same', async () => {
    const { id } = richCall()
    const trpc = trpcHttp(() => server.url, () => ADMIN_TOKEN)
    expect(await trpc.query('calls.get', { callId: id })).toEqual((await get(id)).body)
  })

  it('is in /openapi.json under the calls tag, with its 404', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, { get?: { tags: string[]; operationId: string; responses: Record<string, unknown> } }> }
    expect(doc.paths['/calls/{call_id}']!.get).toMatchObject({ operationId: 'get_call', tags: ['Calls (Callscope extension)'] })
    expect(Object.keys(doc.paths['/calls/{call_id}']!.get!.responses).sort()).toEqual(['200', '401', '403', '404', '422'])
  })
})

describe('call page indexes', () => {
  const plan = (sql: string, ...params: unknown[]) => (server.sqlite.prepare(`explain query plan ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ')
  it('reads every part of the page through an index (EXPLAIN QUERY PLAN)', () => {
    expect(plan('select * from calls where id = ?', 'x')).toMatch(/SEARCH calls USING INDEX sqlite_autoindex_calls_1 \(id=\?\)/)
    expect(plan('select * from call_logs where call_id = ? order by timestamp, seq limit 5000', 'x')).toMatch(/SEARCH call_logs USING INDEX call_logs_call \(call_id=\?\)/)
    expect(plan('select * from call_logs where call_id = ? and tenant_id = ? order by timestamp, seq limit 5000', 'x', 'y')).toMatch(/USING INDEX call_logs_call \(call_id=\?\)/)
    expect(plan('select count(*) from call_logs where call_id = ?', 'x')).toMatch(/USING COVERING INDEX call_logs_call \(call_id=\?\)/)
    expect(plan('select * from messages where conversation_id = ? order by position', 'x')).toMatch(/USING INDEX sqlite_autoindex_messages_2 \(conversation_id=\?\)/)
    expect(plan('select * from transfers where conversation_id = ? order by requested_at, id', 'x')).toMatch(/USING INDEX transfers_conversation \(conversation_id=\?\)/)
    expect(plan('select id, name from agents where id in (?, ?)', 'x', 'y')).toMatch(/USING INDEX sqlite_autoindex_agents_1 \(id=\?\)/)
  })
})
