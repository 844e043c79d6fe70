import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callLogCountByInputSchema, type CallLogCountBy } from '../../../src-shared/schemas/call-log-count-by'
import { callLogFilterSchema, type CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { seedDatabase } from '../../seed'
import { cellCountsQuery, errorCountsQuery, indexedBucketCountsQuery, indexedValueCountsQuery, rangeCountQuery } from './call-logs.count-by.repo'
import { createCallLogCountBy, CountByTooManyGroupsError } from './call-logs.count-by'
import { createCallLogsService } from './call-logs.service'
import { compileLogQuery } from './log-query'
import { countByTooSlowError, LogQueryTooSlowError } from './log-query.slow'

/*
 * Count-by against the truth: every line of the seeded store read back and grouped here in
 * JavaScript (JSON.parse for details), independently of the service's SQL.
 */

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
let handle: DatabaseHandle
let service: ReturnType<typeof createCallLogsService>
beforeAll(async () => {
  handle = await migratedDb()
  seedDatabase(handle, { scale: 'small', seed: 4, anchor: Date.parse('2026-11-20T12:00:00Z') })
  service = createCallLogsService(handle.db, handle.json)
})
afterAll(async () => handle.close())

type Line = { timestamp: string; tenant_id: string; agent_id: string | null; log_level: string; log_type: string; details: string }
const FIELD: Record<string, keyof Line> = { level: 'log_level', type: 'log_type', tenant: 'tenant_id', agent: 'agent_id' }

/** The group key of a line as the truth sees it: the column, or the details value re-serialised (null: missing). */
function keyOf(line: Line, by: string): string | null {
  if (!by.startsWith('details.')) return line[FIELD[by]!] as string | null
  let value: unknown = JSON.parse(line.details)
  for (const part of by.split('.').slice(1)) value = value !== null && typeof value === 'object' && part in value ? (value as Record<string, unknown>)[part] : undefined
  return value === undefined ? null : JSON.stringify(value)
}
const keyOfGroup = (by: string, g: CallLogCountBy['groups'][number]) =>
  g.kind === 'none' ? null : by.startsWith('details.') ? (typeof g.value === 'string' && /^[[{]/.test(g.value) ? g.value : JSON.stringify(g.value)) : (g.value as string)

/** What the count must be: groups, top N by lines (ties by key), per bucket, from the lines themselves. */
function truth(lines: Line[], by: string, top: number, answer: CallLogCountBy) {
  const tally = new Map<string | null, { count: number; errors: number; perBucket: Map<string, number> }>()
  const size = answer.bucket_seconds * 1000
  for (const l of lines) {
    const k = keyOf(l, by)
    const t = tally.get(k) ?? { count: 0, errors: 0, perBucket: new Map() }
    t.count++
    if (l.log_level === 'error' || l.log_level === 'critical') t.errors++
    const bucket = new Date(Math.floor(Date.parse(l.timestamp) / size) * size).toISOString()
    t.perBucket.set(bucket, (t.perBucket.get(bucket) ?? 0) + 1)
    tally.set(k, t)
  }
  const ranked = [...tally].sort(([ka, a], [kb, b]) => b.count - a.count || (ka === null ? 1 : kb === null ? -1 : ka < kb ? -1 : 1))
  return { ranked, shown: ranked.slice(0, top), rest: ranked.slice(top), total: lines.length }
}

/** The lines a filter selects, straight from SQLite with the conditions written out by hand. */
const lines = (where = '1', ...params: unknown[]) =>
  handle.sqlite.prepare(`select timestamp, tenant_id, agent_id, log_level, log_type, details from call_logs where ${where}`).all(...params) as Line[]

const count = (filter: CallLogFilterInput, by: string, top = 5, principal = admin) => service.countBy(principal, callLogFilterSchema.parse(filter), by, top)

function expectTruth(answer: CallLogCountBy, all: Line[], by: string, top: number) {
  const t = truth(all, by, top, answer)
  expect(answer.total).toBe(t.total)
  expect(answer.errors).toBe(all.filter((l) => l.log_level === 'error' || l.log_level === 'critical').length)
  const named = answer.groups.filter((g) => g.kind !== 'other')
  expect(named.map((g) => [keyOfGroup(by, g), g.count, g.errors])).toEqual(t.shown.map(([k, v]) => [k, v.count, v.errors]))
  const other = answer.groups.find((g) => g.kind === 'other')
  if (t.rest.length === 0) expect(other).toBeUndefined()
  else expect([other?.count, other?.errors]).toEqual([t.rest.reduce((n, [, v]) => n + v.count, 0), t.rest.reduce((n, [, v]) => n + v.errors, 0)])
  // Bucket by bucket: each named group's lines, and the other's the rest of that bucket's lines.
  for (const b of answer.buckets) {
    const expected = t.shown.map(([, v]) => v.perBucket.get(b.start) ?? 0)
    if (t.rest.length > 0) expected.push(t.rest.reduce((n, [, v]) => n + (v.perBucket.get(b.start) ?? 0), 0))
    expect(b.counts, b.start).toEqual(expected)
  }
  expect(answer.buckets.reduce((n, b) => n + b.counts.reduce((m, c) => m + c, 0), 0)).toBe(t.total)
}

describe('count by, against the lines themselves', () => {
  it.each([
    ['level', {}, 'level', '1'],
    ['type, 3 groups', {}, 'type', '1', 3],
    ['tenant over a window (index range counts)', { from: '2026-11-10T07:13:00.000Z', to: '2026-11-12T19:02:59.999Z' }, 'tenant', "timestamp between '2026-11-10T07:13:00.000Z' and '2026-11-12T19:02:59.999Z'"],
    ['agent, lines without one included', {}, 'agent', '1', 10],
    ['details.provider', {}, 'details.provider', '1'],
    ['details.model, top 10 (its index, 0019)', {}, 'details.model', '1', 10],
    ['details.status over a window (its index)', { from: '2026-11-10T07:13:00.000Z', to: '2026-11-12T19:02:59.999Z' }, 'details.status', "timestamp between '2026-11-10T07:13:00.000Z' and '2026-11-12T19:02:59.999Z'", 3],
    ['details.language (no index: lines read in slices)', {}, 'details.language', '1'],
    ['details.provider of one tenant by query (sliced)', { query: `tenant:${'$TENANT'}` }, 'details.provider', 'tenant_id = $TENANT'],
    ['details.provider of errors', { levels: ['error', 'critical'] }, 'details.provider', "log_level in ('error', 'critical')"],
    ['details.latency_ms of llm lines, by query', { query: 'type:llm' }, 'details.latency_ms', "log_type = 'llm'"],
    ['tenant of lines mentioning a timeout', { query: 'imeout' }, 'tenant', "message like '%imeout%'"],
    ['agent of one type in a window', { types: ['tts'], from: '2026-11-15T00:00:00Z', to: '2026-11-16T00:00:00Z' }, 'agent', "log_type = 'tts' and timestamp between '2026-11-15T00:00:00.000Z' and '2026-11-16T00:00:00.000Z'"],
  ] as Array<[string, CallLogFilterInput, string, string, number?]>)('%s', async (_label, filterIn, by, whereIn, top = 5) => {
    // $TENANT: the seed's largest tenant (its id is drawn by the seed).
    const tenant = handle.sqlite.prepare('select tenant_id from call_logs group by tenant_id order by count(*) desc limit 1').pluck().get() as string
    const filter = JSON.parse(JSON.stringify(filterIn).replace('$TENANT', tenant)) as CallLogFilterInput
    const where = whereIn.replace('$TENANT', `'${tenant}'`)
    const answer = await count(filter, by, top)
    const all = lines(where)
    expect(all.length).toBeGreaterThan(0)
    expectTruth(answer, all, by, top)
    expect(answer.groups.length).toBeLessThanOrEqual(top + 1)
    // The histogram's buckets: same size and span.
    const histogram = await service.histogram(admin, callLogFilterSchema.parse(filter))
    expect([answer.bucket_seconds, answer.buckets.map((b) => b.start)]).toEqual([histogram.bucketSeconds, histogram.buckets.map((b) => b.start)])
  })

  it('names tenants and agents, and counts lines without an agent as "none"', async () => {
    // System lines have no agent: among them and a few agents' lines, the "none" group leads.
    const answer = await count({ query: 'type:system OR type:transfer' }, 'agent', 10)
    const none = answer.groups.find((g) => g.kind === 'none')
    expect(none?.count).toBe(lines('agent_id is null').length)
    expect(none?.count).toBeGreaterThan(0)
    expect(none?.value).toBeNull()
    const named = answer.groups.filter((g) => g.kind === 'value')
    const names = new Map((handle.sqlite.prepare('select id, name from agents').all() as Array<{ id: string; name: string }>).map((a) => [a.id, a.name]))
    expect(named.map((g) => g.name)).toEqual(named.map((g) => names.get(g.value as string)))
  })

  it('keeps JSON types apart and a missing key as "none"', async () => {
    const answer = await count({}, 'details.provider', 10)
    expect(answer.groups.find((g) => g.kind === 'none')?.count).toBe(lines("json_type(details, '$.provider') is null").length)
    expect(answer.groups.filter((g) => g.kind === 'value').every((g) => typeof g.value === 'string')).toBe(true)
    const temperature = await count({ query: 'type:llm' }, 'details.latency_ms', 10)
    expect(temperature.groups.filter((g) => g.kind === 'value').every((g) => typeof g.value === 'number')).toBe(true)
    expect(temperature.groups.filter((g) => g.kind === 'value').length).toBeGreaterThan(1)
  })

  it('sums every group past the top N as "other", whatever N', async () => {
    const all = lines()
    for (const top of [1, 2, 10]) expectTruth(await count({}, 'type', top), all, 'type', top)
  })

  it('counts a tenant token’s own lines only', async () => {
    const tenant = handle.sqlite.prepare('select tenant_id from call_logs group by tenant_id order by count(*) limit 1').pluck().get() as string
    const own = await count({}, 'tenant', 5, { role: 'tenant', tenantId: tenant, tokenId: 'k' })
    expect(own.groups.map((g) => [g.value, g.count])).toEqual([[tenant, lines('tenant_id = ?', tenant).length]])
    expectTruth(await count({}, 'details.provider', 5, { role: 'tenant', tenantId: tenant, tokenId: 'k' }), lines('tenant_id = ?', tenant), 'details.provider', 5)
  })

  it('answers nothing for a filter that can hold nothing', async () => {
    expect(await count({ query: 'tenant:nobody-has-this-name' }, 'level')).toMatchObject({ total: 0, groups: [], buckets: [] })
  })

  it('refuses a key it cannot count by, and an N out of range', () => {
    for (const by of ['message', 'details.', 'details.bad key', 'details.a..b', "details.x') or 1=1 --", 'LEVEL']) expect(callLogCountByInputSchema.safeParse({ filter: {}, by }).success, by).toBe(false)
    for (const top of [0, 11, 2.5]) expect(callLogCountByInputSchema.safeParse({ filter: {}, by: 'level', top }).success).toBe(false)
    expect(callLogCountByInputSchema.parse({ filter: {}, by: 'details.usage.tokens' }).top).toBe(5)
  })
})

describe('count by, shown as it goes', () => {
  const steps = async (filter: CallLogFilterInput, by: string, top = 5) => {
    const out = []
    for await (const step of service.countByProgress(admin, callLogFilterSchema.parse(filter), by, top)) out.push(step)
    return out
  }

  it('reads the lines in waves of time slices, newest first, each answer over what was read, the last one whole', async () => {
    const parts = await steps({}, 'details.language')
    expect(parts.length).toBe(6)
    expect(parts.map((p) => p.complete)).toEqual([false, false, false, false, false, true])
    expect(parts.map((p) => p.scanned)).toEqual([...parts.map((p) => p.scanned)].sort((a, b) => a - b))
    expect(parts.at(-1)!.scanned).toBe(1)
    expect(parts[0]!.scanned).toBeGreaterThan(0)
    // The first answer holds the newest buckets only: the oldest are still empty.
    const first = parts[0]!.answer
    const filled = first.buckets.map((b) => b.counts.reduce((n, c) => n + c, 0) > 0)
    expect(filled.at(-1)).toBe(true)
    expect(filled[0]).toBe(false)
    expect(first.total).toBeLessThan(parts.at(-1)!.answer.total)
    // Each answer's totals only grow, and the last is the count itself.
    const totals = parts.map((p) => p.answer.total)
    expect(totals).toEqual([...totals].sort((a, b) => a - b))
    expect(parts.at(-1)!.answer).toEqual(await count({}, 'details.language'))
  })

  it('answers at once what the indexes count (a field, an indexed details key over a time range)', async () => {
    for (const by of ['level', 'details.provider']) {
      const parts = await steps({}, by)
      expect(parts.map((p) => [p.scanned, p.complete])).toEqual([[1, true]])
      expect(parts[0]!.answer).toEqual(await count({}, by))
    }
  })

  it('reads a filter with a text term once, and answers nothing at once for a filter that holds nothing', async () => {
    expect((await steps({ query: 'imeout' }, 'details.language')).map((p) => p.complete)).toEqual([true])
    expect(await steps({ query: 'tenant:nobody-has-this-name' }, 'level')).toMatchObject([{ complete: true, scanned: 1, answer: { total: 0 } }])
  })
})

describe('count by, stopped', () => {
  it('at the budget, naming the details key and the query’s unindexed terms', async () => {
    const stopped = createCallLogCountBy(handle.db, 0)
    const error = await stopped.countBy(admin, callLogFilterSchema.parse({ query: 'details.voice_id:*' }), 'details.language', 5).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LogQueryTooSlowError)
    expect((error as LogQueryTooSlowError).parts).toEqual(['details.language', 'details.voice_id:*'])
    expect((error as Error).message).toMatch(/^The count by details\.language was stopped after 0 s: "details\.language", "details\.voice_id:\*" have no index, so every line in the range is read\. Narrow the time range/)
    // A key and terms with an index of their own (0019) are not named.
    expect(countByTooSlowError(compileLogQuery('details.model:gpt*'), 'details.provider', 0).parts).toEqual([])
    expect(countByTooSlowError(compileLogQuery('details.model:gpt* OR details.tool:x'), 'details.status', 0).parts).toEqual(['details.tool:x'])
  })

  it('when a key has too many values to chart', async () => {
    const few = createCallLogCountBy(handle.db, 2000, 50)
    await expect(few.countBy(admin, callLogFilterSchema.parse({}), 'details.provider', 5)).rejects.toBeInstanceOf(CountByTooManyGroupsError)
    // The same count within the cap answers.
    await expect(createCallLogCountBy(handle.db, 2000, 100_000).countBy(admin, callLogFilterSchema.parse({}), 'details.provider', 5)).resolves.toMatchObject({ by: 'details.provider' })
  })
})

describe('count-by query plans', () => {
  const explain = (compiled: { sql: string; parameters: readonly unknown[] }) =>
    handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
  const range = { from: '2026-11-10T00:00:00.000Z', to: '2026-11-11T00:00:00.000Z' }

  it('counts a value (or its absence) in a bucket with one range search of its covering index', () => {
    expect(explain(rangeCountQuery(handle.db, range, { column: 'tenant_id', value: 'x' }).compile())).toMatch(/^SEARCH call_logs USING COVERING INDEX call_logs_tenant_timestamp \(tenant_id=\? AND timestamp>\? AND timestamp<\?\)$/)
    expect(explain(rangeCountQuery(handle.db, range, { column: 'agent_id', value: null }).compile())).toMatch(/^SEARCH call_logs USING COVERING INDEX call_logs_agent_timestamp \(agent_id=\? AND timestamp>\? AND timestamp<\?\)$/)
    expect(explain(rangeCountQuery(handle.db, range).compile())).toMatch(/^SEARCH call_logs USING COVERING INDEX call_logs_timestamp \(timestamp>\? AND timestamp<\?\)$/)
  })

  it('reads the error lines along the level index', () => {
    expect(explain(errorCountsQuery(handle.db, range, 'tenant_id').compile())).toMatch(/^SEARCH call_logs USING INDEX call_logs_level_timestamp \(log_level=\? AND timestamp>\? AND timestamp<\?\)/)
  })

  it('counts an indexed details key from its index alone, in its order (0019)', () => {
    // In the index's own order: grouped by (type, value) with no sort, no line read for a JSON value.
    expect(explain(indexedValueCountsQuery(handle.db, range, 'provider').compile())).toMatch(/^SCAN call_logs USING INDEX call_logs_details_provider$/)
    expect(explain(indexedBucketCountsQuery(handle.db, range, 'provider', 3600).compile())).toMatch(/^SCAN call_logs USING COVERING INDEX call_logs_details_provider \| USE TEMP B-TREE FOR GROUP BY$/)
    expect(explain(indexedBucketCountsQuery(handle.db, range, 'status', 3600, { type: 'integer', value: 200 }).compile())).toMatch(/^SEARCH call_logs USING COVERING INDEX call_logs_details_status \(<expr>=\? AND <expr>=\?\) \| USE TEMP B-TREE FOR GROUP BY$/)
  })

  it('groups the lines of a slice read along the index of the filter', () => {
    expect(explain(cellCountsQuery(handle.db, range, { detailsKey: 'provider' }, 3600, 10).compile())).toMatch(/^SEARCH call_logs USING INDEX call_logs_timestamp \(timestamp>\? AND timestamp<\?\)/)
    expect(explain(cellCountsQuery(handle.db, { ...range, agentId: 'a' }, { detailsKey: 'provider' }, 3600, 10).compile())).toMatch(/^SEARCH call_logs USING INDEX call_logs_agent_timestamp \(agent_id=\? AND timestamp>\? AND timestamp<\?\)/)
  })
})
