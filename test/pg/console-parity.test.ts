import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OWNER, type Principal } from '../../src-main/kit/access'
import type { CallList } from '../../src-shared/schemas/call'
import { bearer, startTestServer, type TestServer } from '../helpers/test-server'
import { rawAnswer, type RawAnswer } from '../helpers/raw-answer'

/*
 * Parity of the console's Calls list, call page and Overview (issue 20 pt 1): the same demo rows
 * on SQLite and on PostgreSQL (test/pg-global-setup.ts), each behind the real listener, asked the
 * same questions over REST (`GET /calls`, `GET /calls/{id}`) and tRPC (`calls.list`, `calls.get`,
 * `overview.get`), as an admin and as tenant tokens. Every answer must be the same bytes; the
 * overview is also asked of the services directly at fixed instants, so its days are known.
 */

let sqlite: TestServer
let postgres: TestServer
const tokens = new Map<string, { sqlite: string; postgres: string }>()
let tenantIds: string[] = []
let agentIds: string[] = []
let squadIds: string[] = []
let callIds: string[] = []
/** Call ids that only log lines carry (no calls row): the page's header read from the lines. */
let lineOnlyCallIds: string[] = []
let endReasons: string[] = []

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
  const db = sqlite.service.db
  tenantIds = (await db.selectFrom('tenants').select('id').orderBy('id').execute()).map((r) => r.id)
  agentIds = (await db.selectFrom('agents').select('id').orderBy('id').execute()).map((r) => r.id)
  squadIds = (await db.selectFrom('squads').select('id').orderBy('id').execute()).map((r) => r.id)
  // Every status and end reason, several calls of each: transfers, failures, unanswered.
  const picked = await db
    .selectFrom('calls')
    .select(['id', 'status', 'end_reason'])
    .orderBy('started_at', 'desc')
    .orderBy('id')
    .execute()
  const perKind = new Map<string, number>()
  for (const c of picked) {
    const kind = `${c.status}/${c.end_reason}`
    const n = perKind.get(kind) ?? 0
    if (n < 4) callIds.push(c.id)
    perKind.set(kind, n + 1)
  }
  await addUnfinishedCalls(picked)
  callIds.push('call_unfinished_00', 'call_unfinished_01')
  endReasons = [...new Set(picked.map((c) => c.end_reason).filter((r): r is string => r !== null))].sort()
  lineOnlyCallIds = await importLineOnlyCalls(tenantIds[0]!, agentIds.slice(0, 2))
  for (const tenantId of tenantIds.slice(0, 3)) {
    const pair = { sqlite: '', postgres: '' }
    for (const [store, server] of [['sqlite', sqlite], ['postgres', postgres]] as const) {
      pair[store] = (await server.service.tokens.create({ name: 'parity', role: 'tenant', tenantId })).token
    }
    tokens.set(tenantId, pair)
  }
})

/**
 * Calls still under way, written alike into both stores: no end reason, no duration, as many as
 * the calls of one end reason (a tie in the counts per end reason, where SQLite and PostgreSQL
 * place nulls differently), some starting at the very instant of a stored call (ties of the sort key).
 */
async function addUnfinishedCalls(existing: Array<{ id: string; end_reason: string | null }>): Promise<void> {
  const db = sqlite.service.db
  const counts = new Map<string, number>()
  for (const c of existing) if (c.end_reason) counts.set(c.end_reason, (counts.get(c.end_reason) ?? 0) + 1)
  const tie = Math.min(...[...counts.values()].filter((n) => n > 1))
  const template = await db.selectFrom('calls').selectAll().where('agent_id', 'is not', null).orderBy('started_at', 'desc').orderBy('id').limit(tie).execute()
  const rows = template.map((c, i) => ({
    ...c,
    id: `call_unfinished_${String(i).padStart(2, '0')}`,
    status: 'in_progress',
    end_reason: null,
    answered_at: null,
    ended_at: null,
    duration_ms: null,
    started_at: i % 2 === 0 ? c.started_at : new Date(Date.parse(c.started_at) + 1).toISOString(),
  }))
  for (const server of [sqlite, postgres]) await server.service.db.insertInto('calls').values(rows).execute()
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * Two calls that only log lines tell of (a pulled or imported backend's: no calls row), imported
 * alike into both stores through `POST /imports/call-logs`: opened, joined, turns with STT
 * transcripts and TTS, LLM and tool pairs, a failed transfer, a recording, the end; two lines at
 * the same instant (storage order decides).
 */
async function importLineOnlyCalls(tenantId: string, [agent, other]: string[]): Promise<string[]> {
  const calls = [uuid(700_001), uuid(700_002)]
  const lines: Array<Record<string, unknown>> = []
  calls.forEach((callId, c) => {
    const at = (s: number) => new Date(Date.parse('2026-11-18T10:00:00.000Z') + c * 3_600_000 + s * 1000).toISOString()
    const line = (s: number, log_type: string, log_level: string, message: string, details: Record<string, unknown> = {}, request_id: string | null = null) =>
      lines.push({ id: uuid(710_000 + c * 100 + lines.length), tenant_id: tenantId, log_type, log_level, message, timestamp: at(s), agent_id: agent, session_id: null, call_id: callId, details, user_id: null, trace_id: `trace-${c}`, request_id })
    line(0, 'call', 'info', 'Inbound call', { from: '+14155550101', to: '+14155550199', direction: 'inbound', sip_trunk_id: 'ST_lines' })
    line(1, 'call', 'info', 'Agent joined', { agent_id: agent, wait_ms: 812.4 })
    line(4, 'stt', 'info', 'Final transcript', { transcript: 'I need to change my booking', audio_ms: 2100, is_final: true })
    line(4, 'llm', 'info', 'LLM request', { provider: 'openai', model: 'gpt-4o' }, `req-${c}-1`)
    line(5, 'llm', 'info', 'LLM response', { latency_ms: 900, time_to_first_token_ms: 310 }, `req-${c}-1`)
    line(5, 'tool', 'info', 'Calling lookup_booking', { tool: 'lookup_booking' })
    line(6, 'tool', c === 0 ? 'info' : 'error', 'lookup_booking answered', { tool: 'lookup_booking', latency_ms: 640 })
    line(6, 'tts', 'info', 'Speaking', { latency_ms: 220 })
    line(9, 'stt', 'info', 'Final transcript', { text: 'Please put me through to someone', audio_ms: 1500 })
    line(10, 'transfer', 'info', 'Transfer requested', { to_agent_id: other, reason: 'human requested' })
    line(12, 'transfer', 'error', 'Transfer failed', { to_agent_id: other, outcome: 'failed' })
    line(13, 'tts', 'warning', 'Speaking without latency')
    line(20, 'system', 'info', 'Call recording saved', { format: 'wav', size_bytes: 482_000, retention_days: 30, url: 'https://rec.example.com/r.wav' })
    line(21, 'call', 'info', 'Call ended', { end_reason: 'transfer_failed', duration_ms: 21_000 })
  })
  const body = lines.map((l) => JSON.stringify(l)).join('\n')
  for (const server of [sqlite, postgres]) {
    const response = await server.get('/imports/call-logs?file_name=line-only.ndjson', { method: 'POST', body, headers: { 'Content-Type': 'application/x-ndjson' } })
    expect(response.status, await response.clone().text()).toBe(201)
    expect(((await response.json()) as { inserted: number }).inserted).toBe(lines.length)
  }
  return calls
}

afterAll(async () => {
  await Promise.all([sqlite?.close(), postgres?.close()])
})

type Answer = RawAnswer

const ask = (server: TestServer, path: string, headers: Record<string, string>) => rawAnswer(server, path, { headers })

/** Both servers' answers to one GET (as the admin, or a tenant's token): the same bytes. Returns SQLite's. */
async function same(path: string, tenant?: string): Promise<Answer> {
  const headers = (store: 'sqlite' | 'postgres') => (tenant ? bearer(tokens.get(tenant)![store]) : {})
  const [a, b] = await Promise.all([ask(sqlite, path, headers('sqlite')), ask(postgres, path, headers('postgres'))])
  expect({ path, tenant, ...b }).toEqual({ path, tenant, ...a })
  return a
}

/** A tRPC query of the console, compared on both stores; returns the parsed data. */
async function sameTrpc<T>(procedure: string, input: unknown, tenant?: string): Promise<T> {
  const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
  const answer = await same(`/trpc/${procedure}${query}`, tenant)
  expect(answer.status, `${procedure} ${JSON.stringify(input)}: ${answer.body.slice(0, 300)}`).toBe(200)
  return (JSON.parse(answer.body) as { result: { data: T } }).result.data
}

/** Every page of a list in one order, each page compared; returns the ids in order. */
async function walk(query: string, tenant?: string): Promise<string[]> {
  const ids: string[] = []
  let cursor: string | null = null
  for (let page = 0; page < 100; page++) {
    const path = `/calls?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const answer = await same(path, tenant)
    expect(answer.status, `${path}: ${answer.body.slice(0, 300)}`).toBe(200)
    const list = JSON.parse(answer.body) as CallList
    ids.push(...list.calls.map((c) => c.id))
    cursor = list.next_cursor
    if (!cursor) return ids
  }
  throw new Error(`${query}: more than 100 pages`)
}

describe('the calls list on SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  it('pages through every call in each sort and order, the same pages on both', async () => {
    const total = Number((await sqlite.service.db.selectFrom('calls').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    expect(total).toBeGreaterThan(100)
    for (const sort of ['started_at', 'duration_ms', 'status']) {
      for (const order of ['desc', 'asc']) {
        const ids = await walk(`sort=${sort}&order=${order}&limit=97`)
        expect(ids).toHaveLength(total)
        expect(new Set(ids).size).toBe(total)
      }
    }
  })

  it('filters: tenant, agent, squad, status, end reason, direction, phone, duration, dates; with counts per status and end reason', async () => {
    const first = JSON.parse((await same('/calls?limit=5')).body) as CallList
    const phone = first.calls[0]!.from_number
    const filters = [
      '',
      ...tenantIds.map((id) => `tenant_id=${id}`),
      ...agentIds.slice(0, 8).map((id) => `agent_id=${id}`),
      ...squadIds.map((id) => `squad_id=${id}`),
      'status=completed',
      'status=failed,no_answer',
      'status=busy',
      ...endReasons.map((r) => `end_reason=${r}`),
      `end_reason=${endReasons.slice(0, 2).join(',')}&status=completed`,
      'direction=inbound',
      'direction=outbound&status=failed',
      `phone=${encodeURIComponent(phone.slice(0, 5))}`,
      `phone=${encodeURIComponent(phone)}`,
      `phone=${encodeURIComponent('+1 (4')}`,
      'min_duration_ms=60000',
      'max_duration_ms=20000',
      'min_duration_ms=30000&max_duration_ms=90000&direction=inbound',
      'start_date=2026-11-15',
      'end_date=2026-11-10',
      'start_date=2026-11-12&end_date=2026-11-13',
      'start_date=2026-11-18T06:00:00Z&end_date=2026-11-19T18:30:00Z',
      `tenant_id=${tenantIds[0]}&status=completed&start_date=2026-11-10`,
      'status=nosuch',
    ]
    let nonEmpty = 0
    let withNullReason = 0
    for (const filter of filters) {
      for (const sort of ['started_at', 'duration_ms', 'status']) {
        const answer = await same(`/calls?${filter}&sort=${sort}&limit=40`)
        expect(answer.status, `${filter}: ${answer.body.slice(0, 300)}`).toBe(200)
        const list = JSON.parse(answer.body) as CallList
        if (list.calls.length > 0) nonEmpty++
        if (list.by_end_reason.some((r) => r.end_reason === null)) withNullReason++
        if (list.next_cursor) await same(`/calls?${filter}&sort=${sort}&limit=40&cursor=${encodeURIComponent(list.next_cursor)}`)
      }
    }
    // The filters find calls, and the facets hold calls without an end reason: not empty answers compared.
    expect(nonEmpty).toBeGreaterThan(filters.length * 2)
    expect(withNullReason).toBeGreaterThan(0)
    // Paged walks under filters.
    await walk(`status=completed&sort=duration_ms&order=asc&limit=50`)
    await walk(`tenant_id=${tenantIds[1]}&sort=status&limit=23`)
  })

  it('tenant tokens see their tenant\'s calls only, the same on both', async () => {
    for (const tenant of tokens.keys()) {
      await same('/calls?limit=60', tenant)
      await same(`/calls?tenant_id=${tenantIds.find((t) => t !== tenant)}`, tenant)
      await walk('sort=duration_ms&limit=200', tenant)
    }
  })

  it('the console\'s tRPC list, and bad input refused alike', async () => {
    const list = await sameTrpc<CallList>('calls.list', { query: { status: ['completed'], sort: 'duration_ms', order: 'asc', limit: 30 } })
    expect(list.calls).toHaveLength(30)
    await sameTrpc('calls.list', { query: { status: ['completed'], sort: 'duration_ms', order: 'asc', limit: 30 }, cursor: list.next_cursor })
    for (const bad of ['limit=0', 'sort=nosuch', 'cursor=garbage', 'min_duration_ms=5&max_duration_ms=1', 'start_date=2026-13-01']) {
      expect((await same(`/calls?${bad}`)).status, bad).toBe(422)
    }
  })
})

describe('the call page on SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  it('the same header, timeline, turns, transcript, transfers and recording for calls of every kind', async () => {
    expect(callIds.length).toBeGreaterThan(10)
    let withSpans = 0
    let withTurns = 0
    let withTranscript = 0
    for (const id of callIds) {
      const answer = await same(`/calls/${id}`)
      expect(answer.status, answer.body.slice(0, 300)).toBe(200)
      const page = JSON.parse(answer.body) as { spans: unknown[]; turns: unknown[]; transcript: unknown[] }
      if (page.spans.length > 0) withSpans++
      if (page.turns.length > 0) withTurns++
      if (page.transcript.length > 0) withTranscript++
      await sameTrpc('calls.get', { callId: id })
    }
    expect(withSpans).toBeGreaterThan(5)
    expect(withTurns).toBeGreaterThan(5)
    expect(withTranscript).toBeGreaterThan(5)
  })

  it('calls known only from their lines, tenant tokens, and unknown ids', async () => {
    expect(lineOnlyCallIds).toHaveLength(2)
    for (const id of lineOnlyCallIds) {
      const page = JSON.parse((await same(`/calls/${id}`)).body) as { call: { source: string; from_number: string }; spans: unknown[]; turns: unknown[]; transfers: unknown[]; recording: unknown }
      // Read from the lines on both: the header, the waterfall, two turns, the failed hop, the recording.
      expect(page.call).toMatchObject({ source: 'log_lines', from_number: '+14155550101' })
      expect(page.turns).toHaveLength(2)
      expect(page.transfers).toHaveLength(1)
      expect(page.recording).not.toBeNull()
      await sameTrpc('calls.get', { callId: id })
    }
    for (const tenant of tokens.keys()) {
      for (const id of callIds.slice(0, 12)) await same(`/calls/${id}`, tenant)
    }
    expect((await same('/calls/call_nosuch')).status).toBe(404)
  })
})

describe('the overview on SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  const principals: Array<[string, Principal]> = []

  it('the same counts, days, busiest agents and recent errors at fixed instants, for each scope', async () => {
    principals.push(['admin', OWNER], ['local', { ...OWNER, source: '' }], ['a pulled source', { ...OWNER, source: 'http://127.0.0.1:9/' }])
    for (const id of tenantIds) principals.push([id, { role: 'tenant', tenantId: id, tokenId: null }])
    let calls = 0
    let errors = 0
    for (const now of ['2026-11-20T12:00:00.000Z', '2026-11-12T23:59:59.999Z', '2026-12-31T00:00:00.000Z']) {
      for (const [name, principal] of principals) {
        const [a, b] = await Promise.all([sqlite.service.overview.get(principal, new Date(now)), postgres.service.overview.get(principal, new Date(now))])
        expect({ now, name, ...b }).toEqual({ now, name, ...a })
        calls += a.daily.reduce((n, d) => n + d.calls, 0)
        errors += a.recent_errors.length
        expect(a.busiest_agents.length <= 10).toBe(true)
      }
    }
    expect(calls).toBeGreaterThan(1000)
    expect(errors).toBeGreaterThan(20)
  })

  it('the console\'s tRPC overview, as admin and tenants (its instant masked)', async () => {
    const mask = (body: string) => body.replace(/"until":"[^"]*"/, '"until":"(now)"')
    const compare = async (tenant?: string) => {
      const headers = (store: 'sqlite' | 'postgres') => (tenant ? bearer(tokens.get(tenant)![store]) : {})
      const [a, b] = await Promise.all([ask(sqlite, '/trpc/overview.get', headers('sqlite')), ask(postgres, '/trpc/overview.get', headers('postgres'))])
      expect(a.status, a.body.slice(0, 300)).toBe(200)
      expect({ tenant, ...b, body: mask(b.body) }).toEqual({ tenant, ...a, body: mask(a.body) })
    }
    await compare()
    for (const tenant of tokens.keys()) await compare(tenant)
  })
})
