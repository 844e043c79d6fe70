import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OWNER } from '../../src-main/kit/access'
import { createCallLogSearch, resolveFilter } from '../../src-main/modules/call-logs/call-logs.search'
import { linesInWindow, maxSeq } from '../../src-main/modules/call-logs/call-logs.tail.repo'
import type { CallLogFilter } from '../../src-shared/schemas/call-log-search'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer } from '../helpers/test-server'
import { rawAnswer, type RawAnswer } from '../helpers/raw-answer'

/*
 * Parity of the call log explorer's reads (issue 20 pt 2): the same demo rows on SQLite and on
 * PostgreSQL (test/pg-global-setup.ts), each behind the real listener, asked the console's tRPC
 * reads (search with its highlights, histogram, facets, details keys and values, count by) and
 * the HTTP exports (NDJSON and CSV) for one set of filters: every operator of the query language,
 * phrases, prefixes, substrings, details tests, time ranges, tenant, agent, level and type. Every
 * answer must be the same bytes on both stores. The deliberate differences of word splitting are
 * tested at the end, on lines written for them.
 */

let sqlite: TestServer
let postgres: TestServer
let tenants: Array<{ id: string; name: string }> = []
let agents: Array<{ id: string; name: string }> = []
let callId = ''
let traceId = ''
let sessionId = ''

beforeAll(async () => {
  ;[sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
  const db = sqlite.service.db
  tenants = await db.selectFrom('tenants').select(['id', 'name']).orderBy('id').execute()
  agents = await db.selectFrom('agents').select(['id', 'name']).orderBy('id').execute()
  const line = await db.selectFrom('call_logs').select(['call_id', 'trace_id', 'session_id']).where('call_id', 'is not', null).where('trace_id', 'is not', null).where('session_id', 'is not', null).orderBy('seq').limit(1).executeTakeFirstOrThrow()
  callId = line.call_id!
  traceId = line.trace_id!
  sessionId = line.session_id!
})

afterAll(async () => {
  await Promise.all([sqlite?.close(), postgres?.close()])
})

type Answer = RawAnswer

const ask = (server: TestServer, path: string) => rawAnswer(server, path, { headers: bearer(ADMIN_TOKEN) })

/** Both servers' answers to one GET: they must be the same bytes. Returns SQLite's. */
async function same(path: string): Promise<Answer> {
  const [a, b] = await Promise.all([ask(sqlite, path), ask(postgres, path)])
  expect({ path, ...b }).toEqual({ path, ...a })
  return a
}

/** A tRPC query of the console (GET with its input in the URL), compared on both stores; returns the parsed data. */
async function sameTrpc<T>(procedure: string, input: unknown, ok = true): Promise<T> {
  const answer = await same(`/trpc/callLogs.${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
  if (ok) expect(answer.status, `${procedure} ${JSON.stringify(input)}: ${answer.body.slice(0, 300)}`).toBe(200)
  return (JSON.parse(answer.body) as { result?: { data: T } }).result?.data as T
}

const FROM = '2026-11-01T00:00:00.000Z'
const TO = '2026-11-20T12:00:00.000Z'

/** The query language: every operator, phrases, prefixes, substrings, details tests, time. */
const QUERIES = [
  'timeout',
  'imeout',
  '*imeout*',
  'TIMEOUT',
  '"rate limit"',
  '"Too Many Requests"',
  '"too many"*',
  'time*',
  'retry*',
  'ok',
  'hu',
  '=>',
  ':',
  'level:error',
  'level>=warning',
  'level<info',
  'level:error imeout',
  'level:error AND timeout',
  'level:error OR type:tool',
  'level:error (imeout OR "rate limit")',
  'NOT level:info',
  '-type:llm',
  'type:llm -timeout',
  'type!=call level>warning',
  'details.provider:*',
  'details.provider:openai',
  'details.provider:OPENAI',
  'details.model:gpt*',
  'details.model:GPT*',
  'details.status:429',
  'details.status:"429"',
  'details.status:ok',
  'details.status_code:*',
  'details.latency_ms>2000',
  'details.latency_ms<=300',
  'details.attempt:1',
  'details.attempts>=2',
  'details.timeout_ms:10000',
  'details.error:*',
  'details.error:timeout',
  'details.end_reason:llm_unavailable',
  '-details.provider:openai',
  'details.last_role:user OR details.close_code:1011',
  'details.tool:*',
  'details.nosuch:*',
  '@since 2026-11-10 @until 2026-11-12',
  'level:warning @since 2026-11-15T06:00Z',
  'failed after',
  '"failed after" ms',
  'Calling',
  'zzzznothing',
]

/** The console's other filters beside the query. */
function filters(): Array<Record<string, unknown>> {
  return [
    {},
    { from: FROM, to: TO },
    { from: '2026-11-18', to: '2026-11-19' },
    // Ranges holding whole UTC days: PostgreSQL sums those from its day counts (pg migration 0004),
    // the parts of days at the ends from the lines; daily buckets past 60 days.
    { from: '2026-10-20T07:15:00.000Z' },
    { from: '2026-10-25T00:00:00.000Z', to: '2026-11-17T23:59:59.999Z' },
    { levels: ['warning', 'error'], from: '2026-10-21T13:00:00.000Z', to: '2026-11-19T11:00:00.000Z' },
    { types: ['llm'], from: '2026-10-21T13:00:00.000Z' },
    { from: '2026-09-01T00:00:00.000Z', to: '2026-11-20T12:00:00.000Z' },
    { levels: ['error'], from: '2026-08-15T09:30:00.000Z' },
    { levels: ['error', 'critical'] },
    { types: ['llm', 'tool'] },
    { levels: ['warning'], types: ['stt'] },
    { tenantId: tenants[0]!.id },
    { tenantId: tenants[1]!.id, levels: ['error'] },
    { agentId: agents[0]!.id },
    { agentId: agents[2]!.id, from: '2026-11-10' },
    { callId },
    { traceId },
    { sessionId },
    { q: 'timeout' },
    { q: 'time*' },
    { q: '"too many requests"' },
    { q: 'LLM request' },
    { q: 'retrying 500' },
    { q: 'AND OR NOT' },
    { q: 'hung "before the"' },
    { q: 'Tool tool*', levels: ['error'] },
    { query: `tenant:"${tenants[0]!.name}"` },
    { query: `agent:"${agents[1]!.name.toUpperCase()}"` },
    { query: `agent:${agents[3]!.id} level>=warning` },
    ...QUERIES.map((query) => ({ query })),
    ...QUERIES.slice(0, 12).map((query) => ({ query, from: '2026-11-15', tenantId: tenants[0]!.id })),
  ]
}

describe('the explorer on SQLite and PostgreSQL', { timeout: 600_000 }, () => {
  it('search: the same lines in the same order, pages and highlights', async () => {
    let nonEmpty = 0
    let highlighted = 0
    for (const filter of filters()) {
      const first = await sameTrpc<{ rows: Array<{ highlights?: unknown[] }>; nextCursor: unknown }>('search', { filter, limit: 50 })
      if (first.rows.length > 0) nonEmpty++
      if (first.rows.some((r) => (r.highlights?.length ?? 0) > 0)) highlighted++
      if (first.nextCursor) await sameTrpc('search', { filter, limit: 200, cursor: first.nextCursor })
    }
    // The questions find lines, and marks: not a comparison of empty answers.
    expect(nonEmpty).toBeGreaterThan(60)
    expect(highlighted).toBeGreaterThan(20)
  })

  it('histogram, facets and details facets: the same numbers', async () => {
    for (const filter of filters()) {
      await sameTrpc('histogram', { filter })
      await sameTrpc('facets', { filter })
    }
    for (const filter of [{}, { from: FROM, to: TO }, { levels: ['error'] }, { query: 'type:llm' }, { q: 'timeout' }, { query: 'details.provider:*' }]) {
      const keys = await sameTrpc<{ keys: Array<{ key: string }> }>('detailsKeys', { filter })
      expect(keys.keys.length).toBeGreaterThan(0)
      for (const key of [...keys.keys.map((k) => k.key), 'provider', 'status', 'latency_ms', 'nosuch']) await sameTrpc('detailsFacet', { filter, key })
    }
  })

  it('count by: the same groups, totals and buckets (and the same refusals)', async () => {
    let counted = 0
    const bys = ['level', 'type', 'tenant', 'agent', 'details.provider', 'details.model', 'details.status', 'details.latency_ms', 'details.attempt', 'details.tool']
    for (const by of bys) {
      for (const filter of [{}, { from: FROM, to: TO }, { from: '2026-11-18', to: '2026-11-19' }, { query: 'level>=warning' }, { query: 'timeout' }, { q: 'request' }, { tenantId: tenants[0]!.id }]) {
        const answer = await sameTrpc<{ total?: number } | undefined>('countBy', { filter, by, top: 5 }, false)
        if ((answer?.total ?? 0) > 0) counted++
      }
    }
    expect(counted).toBeGreaterThan(50)
    await same(`/logs/calls/count-by?by=details.provider&query=${encodeURIComponent('level:error')}`)
  })

  it('a query past its budget is stopped inside either store, with the same message', async () => {
    const stopped = await Promise.all(
      [sqlite, postgres].map((server) =>
        createCallLogSearch(server.service.db, { queryBudgetMs: 0 })
          .search(OWNER, { query: 'details.nosuch:x' }, null, 50)
          .then(() => null, (error: Error) => `${error.name}: ${error.message}`),
      ),
    )
    expect(stopped[0]).toMatch(/^LogQueryTooSlowError: The query was stopped after 0 s: "details.nosuch:x" has no index/)
    expect(stopped[1]).toBe(stopped[0])
  })

  it('live tail: the same lines in each window of stored lines', async () => {
    const last = await maxSeq(sqlite.service.db)
    expect(await maxSeq(postgres.service.db)).toBe(last)
    let lines = 0
    for (const filter of filters().filter((_, i) => i % 3 === 0)) {
      const f = resolveFilter(OWNER, filter as CallLogFilter)
      if (f === 'nothing') continue
      for (let after = 0; after < last; after += 5_000) {
        const upTo = Math.min(last, after + 5_000)
        const [a, b] = await Promise.all([linesInWindow(sqlite.service.db, f, after, upTo), linesInWindow(postgres.service.db, f, after, upTo)])
        expect(b.map((r) => r.id), JSON.stringify(filter)).toEqual(a.map((r) => r.id))
        lines += a.length
      }
    }
    expect(lines).toBeGreaterThan(10_000)
  })

  it('exports: the same NDJSON and CSV bytes', async () => {
    const params = [
      '',
      'from=2026-11-18&to=2026-11-19',
      'level=error,critical&type=llm',
      `agent=${agents[0]!.id}`,
      'q=timeout',
      'q=%22too%20many%22*',
      ...QUERIES.slice(0, 30).map((q) => `query=${encodeURIComponent(q)}`),
    ]
    let bytes = 0
    for (const p of params) {
      for (const format of ['ndjson', 'csv']) bytes += (await same(`/export/call-logs.${format}?${p}`)).body.length
    }
    expect(bytes).toBeGreaterThan(1_000_000)
    // Bad input is the same 422 on both.
    expect((await same('/export/call-logs.csv?query=level%3Aerror%20(imeout')).status).toBe(422)
  })
})
