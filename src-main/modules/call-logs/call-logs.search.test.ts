import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema, type CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { createCallLogsService } from './call-logs.service'
import { type NeighbourColumn, neighbourQueries, pageQuery } from './call-logs.search.repo'
import type { CallLogRow } from '../../db/schema'
import { pickBucketSeconds, resolveFilter } from './call-logs.search'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantB: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
const CALL2 = '99999999-9999-4999-8999-999999999999'
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

let handle: DatabaseHandle
let service: ReturnType<typeof createCallLogsService>
const filter = (f: CallLogFilterInput = {}) => callLogFilterSchema.parse(f)
const search = (f: CallLogFilterInput, p: Principal = admin, limit = 100) => service.search(p, filter(f), null, limit)
const messages = async (f: CallLogFilterInput, p: Principal = admin) => (await search(f, p)).rows.map((r) => r.message)

/*
 * Ten known lines, one minute apart from 10:00, plus two at the same instant (10:05) to exercise
 * the seq tie-break. Tenant A unless said; call 1 = lines 1..4, call 2 = lines 5..6.
 */
const LINES: Array<Record<string, unknown>> = [
  { message: 'Call started', log_type: 'call', log_level: 'info', call_id: IDS.call, trace_id: 'tr-1', session_id: 's-1', agent_id: IDS.agent },
  { message: 'STT transcript received', log_type: 'stt', log_level: 'debug', call_id: IDS.call, trace_id: 'tr-1', session_id: 's-1', agent_id: IDS.agent },
  { message: 'LLM timeout after 30s', log_type: 'llm', log_level: 'error', call_id: IDS.call, trace_id: 'tr-1', agent_id: IDS.agent },
  { message: 'Call ended: "caller hung up"', log_type: 'call', log_level: 'warning', call_id: IDS.call, trace_id: 'tr-1', agent_id: IDS.agent },
  { message: 'SIP trunk unreachable, retrying', log_type: 'sip', log_level: 'critical', call_id: CALL2, trace_id: 'tr-2', agent_id: IDS.agent2 },
  { message: 'Webhook delivered AND acknowledged', log_type: 'webhook', log_level: 'info', call_id: CALL2, trace_id: 'tr-2', agent_id: IDS.agent2 },
  { message: 'Café opened', log_type: 'system', log_level: 'info', trace_id: 'tr-3' },
  { message: 'Tenant B error line', log_type: 'llm', log_level: 'error', tenant_id: IDS.otherTenant },
  { message: 'Transcription preview', log_type: 'stt', log_level: 'info' },
  { message: "'; drop table call_logs; --", log_type: 'system', log_level: 'warning' },
]

beforeEach(async () => {
  handle = await migratedDb()
  LINES.forEach((line, i) => {
    const minute = i === 5 ? 4 : i // lines 5 and 6 (index 4, 5) share 10:04
    insert(handle, 'call_logs', rows.callLog({ id: uuid(i + 1), timestamp: `2026-11-01T10:${String(minute).padStart(2, '0')}:00.000Z`, ...line }))
  })
  service = createCallLogsService(handle.db, handle.json)
})
afterEach(() => handle.close())

describe('call log search filters', () => {
  it('returns everything newest first, seq breaking ties', async () => {
    const page = await search({})
    expect(page.rows.map((r) => r.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(uuid))
    expect(page.nextCursor).toBeNull()
    expect(page.rows[0]).not.toHaveProperty('highlights')
  })

  it('filters by range, agent, levels, types, call, trace and session', async () => {
    expect(await messages({ from: '2026-11-01T10:02:00Z', to: '2026-11-01T10:03' })).toEqual(['Call ended: "caller hung up"', 'LLM timeout after 30s'])
    expect((await search({ agentId: IDS.agent2 })).rows.map((r) => r.id)).toEqual([uuid(6), uuid(5)])
    expect(await messages({ levels: ['error', 'critical'] })).toEqual(['Tenant B error line', 'SIP trunk unreachable, retrying', 'LLM timeout after 30s'])
    expect(await messages({ types: ['stt'] })).toEqual(['Transcription preview', 'STT transcript received'])
    expect((await search({ callId: CALL2 })).rows).toHaveLength(2)
    expect(await messages({ traceId: 'tr-3' })).toEqual(['Café opened'])
    expect(await messages({ sessionId: 's-1' })).toEqual(['STT transcript received', 'Call started'])
    expect(await messages({ levels: ['error'], types: ['llm'], tenantId: IDS.tenant })).toEqual(['LLM timeout after 30s'])
    expect(await messages({ to: '2026-11-01' })).toHaveLength(10) // a bare end date includes the day
  })

  it('rejects bad input before it reaches SQL', () => {
    expect(() => filter({ levels: ['fatal' as 'error'] })).toThrow()
    expect(() => filter({ types: [''] })).toThrow()
    expect(() => filter({ types: ['t'.repeat(101)] })).toThrow()
    expect(() => filter({ from: 'yesterday' })).toThrow()
    expect(() => filter({ from: '2026-11-02', to: '2026-11-01' })).toThrow()
  })

  it('treats injection attempts as plain values', async () => {
    expect(await messages({ traceId: "' or 1=1 --" })).toEqual([])
    // Log types are open strings: a quote in one is a value like any other.
    expect(await messages({ types: ["call' or 1=1 --"] })).toEqual([])
    expect(await messages({ callId: "x' union select * from api_tokens --" })).toEqual([])
    expect(await messages({ q: "'; drop table call_logs; --" })).toEqual(["'; drop table call_logs; --"])
    expect((await search({})).rows).toHaveLength(10)
  })

  it('scopes tenant tokens to their own tenant, whatever tenantId they ask for', async () => {
    expect(await messages({}, tenantB)).toEqual(['Tenant B error line'])
    expect(await messages({ tenantId: IDS.tenant }, tenantB)).toEqual(['Tenant B error line'])
    expect((await service.facets(tenantB, filter())).levels).toEqual([{ value: 'error', count: 1 }])
    await expect(service.context(tenantB, uuid(3), 5, 5)).rejects.toThrow(/not found/)
  })
})

describe('keyset pages', () => {
  it('walks every row exactly once, ties included', async () => {
    const seen: string[] = []
    let cursor = null
    for (let i = 0; i < 10; i++) {
      const page = await service.search(admin, filter(), cursor, 3)
      seen.push(...page.rows.map((r) => r.id))
      cursor = page.nextCursor
      if (!cursor) break
    }
    expect(seen).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map(uuid))
    expect(new Set(seen).size).toBe(10)
  })

  it('splits a page between two rows of the same timestamp without loss', async () => {
    const first = await service.search(admin, filter({ agentId: IDS.agent2 }), null, 1)
    expect(first.rows.map((r) => r.id)).toEqual([uuid(6)])
    const second = await service.search(admin, filter({ agentId: IDS.agent2 }), first.nextCursor, 1)
    expect(second.rows.map((r) => r.id)).toEqual([uuid(5)])
    expect(second.nextCursor).toBeNull()
  })
})

describe('full-text search', () => {
  it('matches words, phrases and prefixes, with diacritics folded', async () => {
    expect(await messages({ q: 'timeout' })).toEqual(['LLM timeout after 30s'])
    expect(await messages({ q: 'trans*' })).toEqual(['Transcription preview', 'STT transcript received'])
    expect(await messages({ q: 'cafe' })).toEqual(['Café opened'])
    expect(await messages({ q: '"caller hung"' })).toEqual(['Call ended: "caller hung up"'])
    expect(await messages({ q: '"hung caller"' })).toEqual([])
    expect(await messages({ q: 'call ended' })).toEqual(['Call ended: "caller hung up"'])
  })

  it('searches FTS5 syntax as text instead of failing', async () => {
    expect(await messages({ q: 'AND' })).toEqual(['Webhook delivered AND acknowledged'])
    for (const q of ['"', 'NEAR(', 'message:call', '(', 'a OR', '*', '^call', 'NOT', '-call', '"unterminated']) {
      await expect(search({ q }), q).resolves.toBeDefined()
    }
    expect(await messages({ q: '***' })).toEqual([]) // nothing searchable
  })

  it('marks the matched words of each message', async () => {
    const [row] = (await search({ q: 'transcript*' })).rows.slice(-1)
    expect(row!.message.slice(...row!.highlights![0]!)).toBe('transcript')
    const [cafe] = (await search({ q: 'cafe' })).rows
    expect(cafe!.highlights!.map(([s, e]) => cafe!.message.slice(s, e))).toEqual(['Café'])
  })
})

describe('facets', () => {
  it('counts by level and type, each without its own dimension', async () => {
    const facets = await service.facets(admin, filter({ levels: ['error'], types: ['llm'] }))
    // Levels under types=[llm]: both llm lines are errors.
    expect(facets.levels).toEqual([{ value: 'error', count: 2 }])
    // Types under levels=[error]: only llm.
    expect(facets.types).toEqual([{ value: 'llm', count: 2 }])
    const all = await service.facets(admin, filter())
    expect(Object.fromEntries(all.levels.map((l) => [l.value, l.count]))).toEqual({ info: 4, error: 2, warning: 2, debug: 1, critical: 1 })
    expect(all.types.reduce((n, t) => n + t.count, 0)).toBe(10)
  })

  it('counts a bare time range value by value the same as grouping the lines', async () => {
    // 10:02..10:06 holds lines 3..7, all of tenant A.
    const range = { from: '2026-11-01T10:02:00Z', to: '2026-11-01T10:06:59Z' }
    const byRange = await service.facets(admin, filter(range))
    expect(byRange.levels).toEqual([
      { value: 'info', count: 2 },
      { value: 'critical', count: 1 },
      { value: 'error', count: 1 },
      { value: 'warning', count: 1 },
    ])
    expect(byRange.types.map((t) => t.value)).toEqual(['call', 'llm', 'sip', 'system', 'webhook'])
    // The tenant condition sends the same lines down the grouping path: same answer.
    const grouped = await service.facets(admin, filter({ ...range, tenantId: IDS.tenant }))
    expect(grouped.levels).toEqual(expect.arrayContaining(byRange.levels))
    expect(grouped.types).toEqual(expect.arrayContaining(byRange.types))
    expect(grouped.levels).toHaveLength(4)
    expect(grouped.types).toHaveLength(5)
  })

  it('stops when the request is aborted', async () => {
    const controller = new AbortController()
    controller.abort(new Error('superseded by a newer filter'))
    await expect(service.facets(admin, filter(), controller.signal)).rejects.toThrow('superseded')
    await expect(service.histogram(admin, filter(), controller.signal)).rejects.toThrow('superseded')
  })
})

describe('histogram', () => {
  it('picks the bucket size from the range, at most 120 buckets', () => {
    const h = 3_600_000
    expect(pickBucketSeconds(0, h)).toBe(60)
    expect(pickBucketSeconds(0, 6 * h)).toBe(300)
    expect(pickBucketSeconds(0, 24 * h)).toBe(900)
    expect(pickBucketSeconds(0, 7 * 24 * h)).toBe(10_800)
    expect(pickBucketSeconds(0, 90 * 24 * h)).toBe(86_400)
  })

  it('counts per bucket and level, with empty buckets filled', async () => {
    const hist = await service.histogram(admin, filter({ from: '2026-11-01T10:00:00Z', to: '2026-11-01T10:09:59Z' }))
    expect(hist.bucketSeconds).toBe(60)
    expect(hist.buckets).toHaveLength(10)
    expect(hist.buckets[4]).toEqual({ start: '2026-11-01T10:04:00.000Z', debug: 0, info: 1, warning: 0, error: 0, critical: 1 })
    expect(hist.buckets.reduce((n, b) => n + b.info + b.debug + b.warning + b.error + b.critical, 0)).toBe(10)
    const wide = await service.histogram(admin, filter({ from: '2026-10-01', to: '2026-11-30' }))
    expect(wide.bucketSeconds).toBe(86_400)
    expect(wide.buckets.find((b) => b.start === '2026-11-01T00:00:00.000Z')).toMatchObject({ info: 4, error: 2, critical: 1 })
  })

  it('takes the range from the data when it is open', async () => {
    const hist = await service.histogram(admin, filter({ levels: ['error'] }))
    expect(hist.bucketSeconds).toBe(60)
    expect(hist.buckets.map((b) => b.error)).toEqual([1, 0, 0, 0, 0, 1])
  })
})

describe('context', () => {
  it('returns the lines of the same call around a record', async () => {
    const ctx = await service.context(admin, uuid(3), 1, 5)
    expect(ctx.pivot).toBe('call')
    expect(ctx.before.map((r) => r.id)).toEqual([uuid(2)])
    expect(ctx.anchor.id).toBe(uuid(3))
    expect(ctx.after.map((r) => r.id)).toEqual([uuid(4)])
  })

  it('falls back to the trace, then to time: a line with neither still has context', async () => {
    expect((await service.context(admin, uuid(7), 5, 5)).pivot).toBe('trace')
    const alone = await service.context(admin, uuid(9), 2, 5)
    expect(alone).toMatchObject({ pivot: 'time', same: null })
    expect(alone.before.map((r) => r.id)).toEqual([uuid(7), uuid(8)])
    expect(alone.after.map((r) => r.id)).toEqual([uuid(10)])
    await expect(service.context(admin, 'missing', 1, 1)).rejects.toThrow(/not found/)
  })

  it('shows the lines around any record in time, of every source or of its tenant or agent, in time order with ties by seq', async () => {
    // Line 6 shares 10:04 with line 5 (stored before it): 5 comes before 6 in time order.
    const all = await service.context(admin, uuid(6), 3, 3, { scope: 'time' })
    expect(all).toMatchObject({ pivot: 'time', same: null })
    expect(all.before.map((r) => r.id)).toEqual([uuid(3), uuid(4), uuid(5)])
    expect(all.after.map((r) => r.id)).toEqual([uuid(7), uuid(8), uuid(9)])
    const tenant = await service.context(admin, uuid(6), 10, 10, { scope: 'time', same: 'tenant' })
    expect(tenant.same).toBe('tenant')
    expect([...tenant.before, ...tenant.after].map((r) => r.id)).not.toContain(uuid(8))
    const agent = await service.context(admin, uuid(3), 10, 10, { scope: 'time', same: 'agent' })
    expect([...agent.before, ...agent.after].map((r) => r.id)).toEqual([uuid(1), uuid(2), uuid(4)])
    // Asked for an agent the line has none of: every line, said so.
    expect((await service.context(admin, uuid(9), 1, 1, { scope: 'time', same: 'agent' })).same).toBeNull()
  })

  it('keeps a tenant token to its tenant around a record, and asks for what the record lacks fall back', async () => {
    const own = await service.context(tenantB, uuid(8), 20, 20, { scope: 'time' })
    expect([own.anchor, ...own.before, ...own.after].every((r) => r.tenant_id === IDS.otherTenant)).toBe(true)
    expect((await service.context(admin, uuid(9), 1, 1, { scope: 'call' })).pivot).toBe('time')
    expect((await service.context(admin, uuid(7), 1, 1, { scope: 'call' })).pivot).toBe('trace')
  })
})

describe('query plans', () => {
  const plan = (f: CallLogFilterInput) => {
    const compiled = pageQuery(handle.db, { ...filter(f), match: undefined, query: undefined }, { timestamp: '2026-11-01T10:05:00.000Z', seq: 5 }, 50).selectAll().compile()
    return handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
  }
  it('uses an index for every filter', () => {
    expect(plan({})).toMatch(/USING (COVERING )?INDEX call_logs_timestamp/)
    expect(plan({ agentId: IDS.agent })).toMatch(/INDEX call_logs_agent_timestamp/)
    expect(plan({ levels: ['error'] })).toMatch(/INDEX call_logs_level_timestamp/)
    expect(plan({ types: ['llm'] })).toMatch(/INDEX call_logs_type_timestamp/)
    expect(plan({ callId: IDS.call })).toMatch(/INDEX call_logs_call/)
    expect(plan({ traceId: 'tr-1' })).toMatch(/INDEX call_logs_trace/)
    expect(plan({ sessionId: 's-1' })).toMatch(/INDEX call_logs_session/)
    for (const f of [{}, { agentId: IDS.agent }, { sessionId: 's' }]) expect(plan(f)).not.toMatch(/SCAN call_logs(?! USING)/)
  })

  it('keeps each filter\'s plan when limited to one source, the source checked on the rows it reads', () => {
    const planOf = (f: CallLogFilterInput, source?: string) => {
      const compiled = pageQuery(handle.db, { ...filter(f), match: undefined, query: undefined, ...(source === undefined ? {} : { source }) }, null, 50).selectAll().compile()
      if (source !== undefined) expect(compiled.sql).toContain('"source" = ?')
      return handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
    }
    const filters: CallLogFilterInput[] = [{}, { agentId: IDS.agent }, { tenantId: IDS.tenant }, { levels: ['error'] }, { types: ['llm'] }, { callId: IDS.call }, { traceId: 'tr-1' }, { sessionId: 's-1' }]
    for (const f of filters) expect(planOf(f, 'http://staging'), JSON.stringify(f)).toBe(planOf(f))
    expect(planOf({ agentId: IDS.agent }, '')).toMatch(/^SEARCH call_logs USING INDEX call_logs_agent_timestamp \(agent_id=\?\)$/)
  })

  it('reads the lines around a record in time from an index, without sorting', async () => {
    const anchor = handle.sqlite.prepare('select * from call_logs where id = ?').get(uuid(3)) as CallLogRow
    const explain = (column: NeighbourColumn | null, tenantId?: string) =>
      Object.values(neighbourQueries(handle.db, column, anchor, 10, 10, tenantId)).map((q) => {
        const compiled = q.compile()
        return handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
      })
    for (const p of explain(null)) expect(p).toMatch(/^SEARCH call_logs USING INDEX call_logs_timestamp \(timestamp[<>]\?\)$/)
    for (const p of explain('tenant_id')) expect(p).toMatch(/^SEARCH call_logs USING INDEX call_logs_tenant_timestamp \(tenant_id=\? AND timestamp[<>]\?\)$/)
    for (const p of explain('agent_id')) expect(p).toMatch(/^SEARCH call_logs USING INDEX call_logs_agent_timestamp \(agent_id=\? AND timestamp[<>]\?\)$/)
    for (const p of explain(null, IDS.tenant)) expect(p).not.toMatch(/TEMP B-TREE|SCAN/)
  })
})

describe('relative time bounds', () => {
  const NOW = new Date('2026-11-01T10:10:00.000Z')

  it('resolves from=now-… and to=now-… at the given now, in the one place every read goes through', () => {
    expect(resolveFilter(admin, filter({ from: 'now-5m', to: 'now-3m' }), NOW)).toMatchObject({ from: '2026-11-01T10:05:00.000Z', to: '2026-11-01T10:07:00.000Z' })
    expect(resolveFilter(admin, filter({ from: 'now-5m', query: '@last 2m' }), NOW)).toMatchObject({ from: '2026-11-01T10:08:00.000Z' })
    // An instant after a relative end: nothing, known only once now is.
    expect(resolveFilter(admin, filter({ from: '2026-11-01T10:09:00Z', to: 'now-5m' }), NOW)).toBe('nothing')
  })

  it('finds the lines of the last minutes, and charts up to now', async () => {
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()
    insert(handle, 'call_logs', rows.callLog({ id: uuid(101), timestamp: minutesAgo(3), message: 'recent one' }))
    insert(handle, 'call_logs', rows.callLog({ id: uuid(102), timestamp: minutesAgo(30), message: 'older one' }))
    expect(await messages({ from: 'now-15m' })).toEqual(['recent one'])
    expect(await messages({ from: 'now-1h', to: 'now-15m' })).toEqual(['older one'])
    const before = Date.now()
    const hist = await service.histogram(admin, filter({ from: 'now-15m' }))
    expect(hist.bucketSeconds).toBe(60)
    expect(Date.parse(hist.to!)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(hist.to!) - Date.parse(hist.from!)).toBe(15 * 60_000)
    expect(hist.buckets.reduce((n, b) => n + b.info, 0)).toBe(1)
  })
})
