import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CallLogFacets, CallLogFacetsProgress } from '../../../src-shared/schemas/call-log-facets'
import { callLogFilterSchema, type CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { seedDatabase } from '../../seed'
import { createCallLogFacets } from './call-logs.facets'
import { spanOf } from './call-logs.search'
import { createCallLogsService } from './call-logs.service'
import { LogQueryTooSlowError } from './log-query.slow'

/*
 * Facets shown as they go (issue 17 pt 6), on the seeded demo store: each answer against SQLite's
 * own counts of the lines it covers (the conditions written out by hand), the last one against the
 * one-shot facets, and every partial count within the whole and growing.
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

const parse = (filter: CallLogFilterInput) => callLogFilterSchema.parse(filter)
async function steps(filter: CallLogFilterInput, principal = admin, signal?: AbortSignal): Promise<CallLogFacetsProgress[]> {
  const out: CallLogFacetsProgress[] = []
  for await (const step of service.facetsProgress(principal, parse(filter), signal)) out.push(step)
  return out
}

type Facet = 'levels' | 'types' | 'tenants' | 'agents'
const FACETS: Facet[] = ['levels', 'types', 'tenants', 'agents']
const COLUMN: Record<Facet, string> = { levels: 'log_level', types: 'log_type', tenants: 'tenant_id', agents: 'agent_id' }
/** A facet as [value, count] pairs. */
const pairs = (answer: CallLogFacets, facet: Facet) => answer[facet].map((c) => [c.value, c.count])

/** SQLite's own counts by the facet's column of the lines `where` selects, most first, ties by value. */
function truth(facet: Facet, where: string, ...params: unknown[]): Array<[string, number]> {
  const column = COLUMN[facet]
  const rows = handle.sqlite
    .prepare(`select ${column} as value, count(*) as count from call_logs where (${where}) and ${column} is not null group by value order by count desc, value`)
    .all(...params) as Array<{ value: string; count: number }>
  return rows.map((r) => [r.value, r.count])
}

/** Where the facets of `answer` read up to, after `scanned` of the span's buckets, newest first. */
function cutoff(from: string, to: string, scanned: number): string {
  const span = spanOf(from, to)
  const buckets = (span.lastBucket - span.firstBucket) / span.size + 1
  const read = Math.round(scanned * buckets)
  const start = new Date((span.lastBucket - (read - 1) * span.size) * 1000).toISOString()
  return start > from ? start : from
}

const FR = "json_extract(details, '$.language') = 'fr' collate nocase"

describe('facets shown as they go', () => {
  it('reads the lines of a details key without an index in waves, newest first, each answer the counts of the lines read', async () => {
    const parts = await steps({ query: 'details.language:fr' })
    expect(parts.length).toBe(6)
    expect(parts.map((p) => p.complete)).toEqual([false, false, false, false, false, true])
    const shares = parts.map((p) => p.scanned)
    expect(shares).toEqual([...shares].sort((a, b) => a - b))
    expect(new Set(shares).size).toBe(shares.length)
    expect(shares.at(-1)).toBe(1)
    // The slices span the store's first to last line; each answer is the lines from its cut on.
    const { min, max } = handle.sqlite.prepare('select min(timestamp) as min, max(timestamp) as max from call_logs').get() as { min: string; max: string }
    for (const p of parts) {
      const from = cutoff(min, max, p.scanned)
      for (const facet of FACETS) expect(pairs(p.answer, facet), `${facet} from ${from}`).toEqual(truth(facet, `${FR} and timestamp >= ?`, from))
    }
    const first = parts[0]!.answer.levels.reduce((n, c) => n + c.count, 0)
    expect(first).toBeGreaterThan(0)
    expect(first).toBeLessThan(parts.at(-1)!.answer.levels.reduce((n, c) => n + c.count, 0))
  })

  it('ends with the one-shot facets, every partial count within the whole and never shrinking', async () => {
    const tenant = handle.sqlite.prepare('select tenant_id from call_logs group by tenant_id order by count(*) desc limit 1').pluck().get() as string
    const agent = handle.sqlite.prepare('select agent_id from call_logs where agent_id is not null group by agent_id order by count(*) desc limit 1').pluck().get() as string
    const cases: Array<[CallLogFilterInput, string, ...unknown[]]> = [
      [{ query: 'details.language:fr' }, FR],
      [{ query: `tenant:${tenant}` }, 'tenant_id = ?', tenant],
      [{ query: 'details.language:* level>=warning', levels: ['error'] }, "json_type(details, '$.language') is not null and log_level in ('error', 'critical', 'warning')"],
      [{ agentId: agent, types: ['llm'] }, 'agent_id = ?', agent],
    ]
    for (const [filter, where, ...params] of cases) {
      const parts = await steps(filter)
      expect(parts.length, JSON.stringify(filter)).toBeGreaterThan(1)
      const last = parts.at(-1)!
      expect(last.complete).toBe(true)
      expect(last.answer).toEqual(await service.facets(admin, parse(filter)))
      // Level and type leave their own filter out; tenant and agent do not.
      const levels = filter.levels ? ` and log_level in (${filter.levels.map((l) => `'${l}'`).join(', ')})` : ''
      const types = filter.types ? ` and log_type in (${filter.types.map((t) => `'${t}'`).join(', ')})` : ''
      const own: Record<Facet, string> = { levels: types, types: levels, tenants: levels + types, agents: levels + types }
      for (const facet of FACETS) expect(pairs(last.answer, facet), facet).toEqual(truth(facet, where + own[facet], ...params))
      for (const facet of FACETS) {
        const whole = new Map(last.answer[facet].map((c) => [c.value, c.count]))
        let before = new Map<string, number>()
        for (const p of parts) {
          const now = new Map(p.answer[facet].map((c) => [c.value, c.count]))
          for (const [value, count] of now) {
            expect(count, `${facet} ${value}`).toBeLessThanOrEqual(whole.get(value)!)
            expect(count).toBeGreaterThanOrEqual(before.get(value) ?? 0)
          }
          for (const value of before.keys()) expect(now.has(value), `${facet} ${value} stays`).toBe(true)
          before = now
        }
      }
    }
  })

  it('answers at once what the indexes count: a bare time range, with or without levels and types', async () => {
    const max = handle.sqlite.prepare('select max(timestamp) from call_logs').pluck().get() as string
    for (const filter of [{}, { from: '2026-11-10T00:00:00Z', to: max }, { levels: ['error'] }, { types: ['llm', 'tts'], from: '2026-11-15T00:00:00Z' }] as CallLogFilterInput[]) {
      const parts = await steps(filter)
      expect(parts.map((p) => [p.scanned, p.complete]), JSON.stringify(filter)).toEqual([[1, true]])
      expect(parts[0]!.answer).toEqual(await service.facets(admin, parse(filter)))
    }
    expect(pairs((await steps({}))[0]!.answer, 'tenants')).toEqual(truth('tenants', '1'))
  })

  it('reads a filter with a text term once, and answers nothing for a filter that holds nothing', async () => {
    const [only, ...more] = await steps({ query: 'imeout' })
    expect(more).toEqual([])
    expect(only!.complete).toBe(true)
    expect(pairs(only!.answer, 'agents')).toEqual(truth('agents', "message like '%imeout%'"))
    // A query that matches nothing is read slice by slice too (nothing says so before): every answer empty.
    const none = await steps({ query: 'tenant:nobody-has-this-name' })
    expect(none.at(-1)).toEqual({ answer: { levels: [], types: [], tenants: [], agents: [] }, scanned: 1, complete: true })
    expect(none.every((p) => p.answer.levels.length === 0)).toBe(true)
    // A relative range past the store's last line: nothing to slice, one empty answer.
    expect(await steps({ query: 'details.language:fr', from: '2099-01-01T00:00:00Z' })).toMatchObject([{ complete: true, answer: { levels: [] } }])
  })

  it('counts a tenant token’s own lines only, in every answer', async () => {
    const tenant = handle.sqlite.prepare('select tenant_id from call_logs group by tenant_id order by count(*) limit 1').pluck().get() as string
    const parts = await steps({ query: 'details.language:*' }, { role: 'tenant', tenantId: tenant, tokenId: 'k' })
    expect(parts.length).toBeGreaterThan(1)
    for (const p of parts) expect(p.answer.tenants.map((t) => t.value)).toEqual([tenant])
    expect(pairs(parts.at(-1)!.answer, 'levels')).toEqual(truth('levels', "tenant_id = ? and json_type(details, '$.language') is not null", tenant))
  })

  it('stops after the wave under way once the console has left the filter', async () => {
    const controller = new AbortController()
    const seen: CallLogFacetsProgress[] = []
    const run = (async () => {
      for await (const step of service.facetsProgress(admin, parse({ query: 'details.language:fr' }), controller.signal)) {
        seen.push(step)
        controller.abort()
      }
    })()
    await expect(run).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen.map((s) => s.complete)).toEqual([false])
  })

  it('stops at the budget with a message naming the part without an index', async () => {
    const stopped = createCallLogFacets(handle.db, 0)
    const error = await (async () => {
      for await (const _ of stopped.facetsProgress(admin, parse({ query: 'details.voice_id:*' }))) expect.unreachable()
    })().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LogQueryTooSlowError)
    expect((error as LogQueryTooSlowError).parts).toEqual(['details.voice_id:*'])
    expect((error as Error).message).toMatch(/^The query was stopped after 0 s: "details\.voice_id:\*" has no index, so every line is checked\./)
  })
})
