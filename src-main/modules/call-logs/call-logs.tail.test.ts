import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { callLogFilterSchema, type CallLogFilterInput } from '../../../src-shared/schemas/call-log-search'
import type { DatabaseHandle } from '../../db/connection'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { Principal } from '../../kit/access'
import { resolveFilter } from './call-logs.search'
import { type CallLogTail, createCallLogTail, type TailBatch } from './call-logs.tail'
import { maxSeq, windowQuery } from './call-logs.tail.repo'
import { createStoreWatch, type StoreWatch } from './store-watch'

const admin: Principal = { role: 'admin', tenantId: null, tokenId: null }
const tenantB: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k' }
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

let handle: DatabaseHandle
let watch: StoreWatch
let tail: CallLogTail
let n = 0
const filter = (f: CallLogFilterInput = {}) => callLogFilterSchema.parse(f)
/** Stores one line the way any writer would; returns its id. */
const store = (line: Record<string, unknown> = {}) => {
  n += 1
  insert(handle, 'call_logs', rows.callLog({ id: uuid(n), timestamp: `2026-11-01T10:00:${String(n % 60).padStart(2, '0')}.000Z`, message: `line ${n}`, ...line }))
  return uuid(n)
}

/** Follows in the background; `next()` resolves with the next batch the generator yields. */
function follow(f: CallLogFilterInput, options: { after?: number; backlog?: number } = {}, principal = admin) {
  const controller = new AbortController()
  const iterator = tail.follow(principal, filter(f), options, controller.signal)
  return {
    next: async (): Promise<TailBatch> => {
      const step = await iterator.next()
      if (step.done) throw new Error('the tail ended')
      return step.value
    },
    ended: async () => (await iterator.next()).done,
    stop: () => controller.abort(),
  }
}

beforeEach(async () => {
  n = 0
  handle = await migratedDb()
  watch = createStoreWatch(() => maxSeq(handle.db), 20)
  tail = createCallLogTail(handle.db, watch)
})
afterEach(() => {
  watch.close()
  handle.close()
})

describe('live tail of call logs', () => {
  it('starts with the newest stored lines, oldest first, then yields only new matching lines in stored order', async () => {
    for (let i = 0; i < 5; i++) store({ log_level: i % 2 ? 'error' : 'info' })
    const errors = follow({ levels: ['error'] }, { backlog: 10 })
    const first = await errors.next()
    expect(first.lines.map((l) => l.message)).toEqual(['line 2', 'line 4'])
    expect(first.lastSeq).toBe(5)

    store({ log_level: 'info' })
    const late = store({ log_level: 'error', message: 'late error', timestamp: '2026-10-01T00:00:00.000Z' })
    store({ log_level: 'error', message: 'newest error' })
    const second = await errors.next()
    // Stored order, not time order: a pull may store an old line after a new one.
    expect(second.lines.map((l) => [l.id, l.message])).toEqual([[late, 'late error'], [uuid(8), 'newest error']])
    expect(second.lastSeq).toBe(8)
    errors.stop()
    expect(await errors.ended()).toBe(true)
  })

  it('starts with an empty batch at the end of the store when no backlog is asked for', async () => {
    store()
    store()
    const all = follow({})
    expect(await all.next()).toEqual({ lines: [], lastSeq: 2 })
    store({ message: 'third' })
    expect((await all.next()).lines.map((l) => l.message)).toEqual(['third'])
    all.stop()
  })

  it('resumes after a given seq with nothing lost and nothing twice', async () => {
    for (let i = 0; i < 4; i++) store()
    const resumed = follow({}, { after: 2, backlog: 50 })
    const first = await resumed.next()
    expect(first).toEqual({ lines: [], lastSeq: 2 })
    expect((await resumed.next()).lines.map((l) => l.message)).toEqual(['line 3', 'line 4'])
    resumed.stop()
  })

  it('shows a tenant token its own tenant only', async () => {
    insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Other' }))
    const own = follow({ tenantId: IDS.tenant }, {}, tenantB)
    await own.next()
    store({ tenant_id: IDS.tenant, message: 'not yours' })
    store({ tenant_id: IDS.otherTenant, message: 'yours' })
    expect((await own.next()).lines.map((l) => l.message)).toEqual(['yours'])
    own.stop()
  })

  it('matches full-text queries in new lines only, with highlights', async () => {
    for (let i = 0; i < 3; i++) store({ message: `old timeout ${i}` })
    const timeouts = follow({ q: 'timeout' })
    expect((await timeouts.next()).lines).toEqual([])
    store({ message: 'LLM timeout after 30s' })
    store({ message: 'all good' })
    const batch = await timeouts.next()
    expect(batch.lines.map((l) => [l.message, l.highlights])).toEqual([['LLM timeout after 30s', [[4, 11]]]])
    timeouts.stop()
  })

  it('follows a query of the explorer\'s language: substrings, OR, fields, NOT', async () => {
    store({ message: 'old timeout' })
    const tail = follow({ query: '(imeout OR "rate limit") -level:debug' })
    expect((await tail.next()).lines).toEqual([])
    store({ message: 'LLM timeout after 30s', log_level: 'error' })
    store({ message: 'timeout while debugging', log_level: 'debug' })
    store({ message: 'Rate limit reached for gpt-4.1', log_level: 'warning' })
    store({ message: 'all good' })
    expect((await tail.next()).lines.map((l) => l.message)).toEqual(['LLM timeout after 30s', 'Rate limit reached for gpt-4.1'])
    tail.stop()
  })

  it('catches up on a large write in windows, every line once', async () => {
    const many = 12_345
    const s = handle.sqlite.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp) values (?, ?, 'llm', 'info', ?, '2026-11-01T10:00:00.000Z')")
    const all = follow({ types: ['llm'] })
    await all.next()
    handle.sqlite.transaction(() => {
      for (let i = 0; i < many; i++) s.run(`bulk-${i}`, IDS.tenant, `bulk ${i}`)
    })()
    const seen: string[] = []
    while (seen.length < many) seen.push(...(await all.next()).lines.map((l) => l.id))
    expect(seen).toEqual(Array.from({ length: many }, (_, i) => `bulk-${i}`))
    all.stop()
  })

  it('ends when the store closes', async () => {
    const all = follow({})
    await all.next()
    const ended = all.ended()
    watch.close()
    expect(await ended).toBe(true)
  })

  it('reads a window as a rowid range, whatever index the filter could use (EXPLAIN QUERY PLAN)', () => {
    const f = resolveFilter(admin, filter({ agentId: IDS.agent, levels: ['error'], q: 'timeout' }))
    if (f === 'nothing') throw new Error('unexpected')
    const compiled = windowQuery(handle.db, f, 100, 5100).compile()
    const plan = handle.sqlite.prepare(`explain query plan ${compiled.sql}`).all(...(compiled.parameters as unknown[])).map((r) => (r as { detail: string }).detail)
    expect(plan.join(' | ')).toMatch(/CO-ROUTINE.*SEARCH call_logs USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/)
    expect(plan.join(' | ')).toMatch(/call_logs_fts VIRTUAL TABLE INDEX 0:M\d+/)
    expect(plan.join(' | ')).not.toMatch(/call_logs_agent_timestamp|call_logs_level_timestamp/)
    // The text index is asked for the window's rowids only, not for every match in the store.
    expect(compiled.sql).toMatch(/call_logs_fts match \? and rowid > \? and rowid <= \?/)
    const language = resolveFilter(admin, filter({ query: 'imeout agent:' + IDS.agent }))
    if (language === 'nothing') throw new Error('unexpected')
    const withQuery = windowQuery(handle.db, language, 100, 5100).compile()
    expect(withQuery.sql).toMatch(/call_logs_trigram match \? and rowid > \? and rowid <= \?/)
    const queryPlan = handle.sqlite.prepare(`explain query plan ${withQuery.sql}`).all(...(withQuery.parameters as unknown[])).map((r) => (r as { detail: string }).detail).join(' | ')
    expect(queryPlan).toMatch(/CO-ROUTINE.*SEARCH call_logs USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/)
  })
})
