import { Kysely, SqliteDialect } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { squadAnalyticsInputSchema, squadAnalyticsQuerySchema, squadAnalyticsSchema } from '../../../src-shared/schemas/squad-analytics'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import type { Principal } from '../../kit/access'
import * as repo from './squads.repo'
import { createSquadsService, resolvePeriod } from './squads.service'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const OTHER_TENANT: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k2' }

const A = IDS.agent // Aria, lead
const B = IDS.agent2 // Mateo, member
const C = '33333333-3333-4333-8333-333333333333' // Chen, overflow member without sessions
const D = '44444444-4444-4444-8444-444444444444' // Dana, handled a squad session but is not a member
const OTHER_SQUAD = '55555555-5555-4555-8555-555555555555'
const EMPTY_SQUAD = '66666666-6666-4666-8666-666666666666'
const FOREIGN_SQUAD = '77777777-7777-4777-8777-777777777777'

const DAY = '2026-11-01'
const at = (time: string) => `${DAY}T${time}.000Z`
/** A 10-hour period: 00:00 to 10:00 on 1 November. */
const TEN_HOURS = { start_date: `${DAY}T00:00:00Z`, end_date: `${DAY}T10:00:00Z` }

let handle: DatabaseHandle
let service: ReturnType<typeof createSquadsService>
const NOW = Date.parse('2026-11-20T12:00:00.000Z')

function session(id: string, o: Record<string, unknown>) {
  insert(handle, 'conversations', rows.conversation({ id, squad_id: IDS.squad, routing_strategy: 'round_robin', ...o, updated_at: o.created_at }))
}
function transfer(id: string, o: Record<string, unknown>) {
  insert(handle, 'transfers', rows.transfer({ id, conversation_id: 's2', ...o }))
}

/**
 * Squad "Desk" (round_robin now) with members Aria (lead, 0), Mateo (member, 1), Chen (overflow, 2).
 * Five sessions on 1 November between 00:00 and 10:00, and decoys just outside the period, in
 * another squad and in no squad.
 */
function insertFixture() {
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: B, name: 'Mateo' }))
  insert(handle, 'agents', rows.agent({ id: C, name: 'Chen' }))
  insert(handle, 'agents', rows.agent({ id: D, name: 'Dana' }))
  insert(handle, 'squads', rows.squad())
  insert(handle, 'squads', rows.squad({ id: OTHER_SQUAD, name: 'Other' }))
  insert(handle, 'squads', rows.squad({ id: EMPTY_SQUAD, name: 'Empty', routing_strategy: 'priority' }))
  insert(handle, 'squads', rows.squad({ id: FOREIGN_SQUAD, tenant_id: IDS.otherTenant, name: 'Globex desk' }))
  insert(handle, 'squad_members', rows.squadMember({ agent_id: A, role: 'lead', priority: 0 }))
  insert(handle, 'squad_members', rows.squadMember({ agent_id: B, role: 'member', priority: 1 }))
  insert(handle, 'squad_members', rows.squadMember({ agent_id: C, role: 'overflow', priority: 2 }))
  insert(handle, 'squad_members', rows.squadMember({ squad_id: OTHER_SQUAD, agent_id: A }))

  // Aria: 1.5 h + 1.5 h of handle time = 3 h of the 10-hour period.
  session('s1', { agent_id: A, created_at: at('01:00:00'), ended_at: at('02:30:00'), channel: 'voice', language: 'en', wait_ms: 1000, resolved: 1 })
  session('s2', { agent_id: A, created_at: at('03:00:00'), ended_at: at('04:30:00'), channel: 'voice', language: 'es', wait_ms: 3000, resolved: 0, status: 'transferred' })
  // Mateo: 0.5 h, and one ongoing session that counts but adds no handle time.
  session('s3', { agent_id: B, created_at: at('03:15:00'), ended_at: at('03:45:00'), channel: 'chat', language: 'en', routing_strategy: 'least_busy', wait_ms: 500, resolved: 1 })
  session('s4', { agent_id: B, created_at: at('09:30:00'), ended_at: null, channel: 'voice', language: 'en', routing_strategy: 'least_busy', wait_ms: null, resolved: null, status: 'active' })
  // Dana is not a member.
  session('s5', { agent_id: D, created_at: at('05:00:00'), ended_at: at('05:10:00'), channel: 'chat', language: 'fr', routing_strategy: 'least_busy', wait_ms: 1500, resolved: 1 })
  // Decoys: one millisecond outside the period, another squad, no squad.
  session('o1', { agent_id: A, created_at: '2026-10-31T23:59:59.999Z', ended_at: at('01:00:00') })
  session('o2', { agent_id: A, created_at: '2026-11-01T10:00:00.001Z', ended_at: '2026-11-01T11:00:00.000Z' })
  session('o3', { agent_id: A, squad_id: OTHER_SQUAD, created_at: at('02:00:00'), ended_at: at('03:00:00') })
  session('o4', { agent_id: A, squad_id: null, routing_strategy: null, created_at: at('02:00:00'), ended_at: at('03:00:00') })

  transfer('t1', { from_agent_id: A, to_agent_id: B, reason: 'language', outcome: 'success', latency_ms: 1000, requested_at: at('04:00:00') })
  transfer('t2', { from_agent_id: A, to_agent_id: B, reason: 'escalation', outcome: 'failed', latency_ms: 20000, requested_at: at('04:10:00') })
  transfer('t3', { from_agent_id: B, to_agent_id: A, reason: 'language', outcome: 'success', latency_ms: 3000, requested_at: at('06:00:00') })
  transfer('t4', { from_agent_id: A, to_agent_id: B, requested_at: '2026-11-01T10:00:00.001Z' })
  transfer('t5', { from_agent_id: A, to_agent_id: B, squad_id: OTHER_SQUAD, requested_at: at('04:00:00') })
}

beforeEach(async () => {
  handle = await migratedDb()
  service = createSquadsService(handle.db, { now: () => NOW })
  insertFixture()
})
afterEach(async () => handle.close())

const analytics = (query: Record<string, string | undefined> = TEN_HOURS, squadId = IDS.squad, principal = ADMIN) =>
  service.analytics(principal, squadId, squadAnalyticsQuerySchema.parse(query))

describe('squad analytics: the fixture', () => {
  it('matches the published schema exactly and names the squad and period', async () => {
    const result = await analytics()
    expect(squadAnalyticsSchema.strict().parse(result)).toEqual(result)
    expect(result).toMatchObject({
      squad_id: IDS.squad,
      squad_name: 'Desk',
      tenant_id: IDS.tenant,
      routing_strategy: 'round_robin',
      period: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-01T10:00:00.000Z', hours: 10 },
    })
  })

  it('transfer statistics: 3 transfers, 2 successful → 2/3, latency over the successful ones', async () => {
    const { transfer_statistics: t } = await analytics()
    expect(t).toEqual({
      total: 3,
      successful: 2,
      failed: 1,
      success_rate: 0.6667,
      mean_time_to_transfer_ms: 2000,
      // Nearest rank of [1000, 3000]: rank ceil(0.9 × 2) = 2.
      p90_time_to_transfer_ms: 3000,
      by_reason: [
        { reason: 'language', count: 2, successful: 2, failed: 0, success_rate: 1 },
        { reason: 'escalation', count: 1, successful: 0, failed: 1, success_rate: 0 },
      ],
      matrix: [
        { from_agent_id: A, from_agent_name: 'Aria', to_agent_id: B, to_agent_name: 'Mateo', count: 2, successful: 1, failed: 1 },
        { from_agent_id: B, from_agent_name: 'Mateo', to_agent_id: A, to_agent_name: 'Aria', count: 1, successful: 1, failed: 0 },
      ],
    })
  })

  it('member utilization: every member, busy 3 of 10 hours is 30 %, ongoing sessions add no time', async () => {
    const { member_utilization: m } = await analytics()
    expect(m).toEqual([
      {
        agent_id: A, agent_name: 'Aria', role: 'lead', priority: 0,
        sessions_handled: 2, ended_sessions: 2, total_handle_time_ms: 10_800_000, mean_handle_time_ms: 5_400_000,
        utilization_pct: 30, transfers_in: 1, transfers_out: 2,
      },
      {
        agent_id: B, agent_name: 'Mateo', role: 'member', priority: 1,
        sessions_handled: 2, ended_sessions: 1, total_handle_time_ms: 1_800_000, mean_handle_time_ms: 1_800_000,
        utilization_pct: 5, transfers_in: 2, transfers_out: 1,
      },
      {
        agent_id: C, agent_name: 'Chen', role: 'overflow', priority: 2,
        sessions_handled: 0, ended_sessions: 0, total_handle_time_ms: 0, mean_handle_time_ms: 0,
        utilization_pct: 0, transfers_in: 0, transfers_out: 0,
      },
    ])
  })

  it('routing strategy performance: known waits, resolution and transfer rates per strategy', async () => {
    const { routing_strategy_performance: r } = await analytics()
    expect(r).toEqual([
      // s3, s4 (ongoing: no wait recorded, outcome unknown), s5.
      { strategy: 'least_busy', is_current: false, sessions: 3, mean_wait_ms: 1000, resolution_rate: 1, transfer_rate: 0 },
      // s1 resolved, s2 transferred and not resolved.
      { strategy: 'round_robin', is_current: true, sessions: 2, mean_wait_ms: 2000, resolution_rate: 0.5, transfer_rate: 0.5 },
    ])
  })

  it('session distribution: members (and the non-member), 24 UTC hour buckets, days, languages, channels', async () => {
    const { session_distribution: s } = await analytics()
    expect(s.total_sessions).toBe(5)
    expect(s.by_member).toEqual([
      { agent_id: A, agent_name: 'Aria', sessions: 2 },
      { agent_id: B, agent_name: 'Mateo', sessions: 2 },
      { agent_id: D, agent_name: 'Dana', sessions: 1 },
      { agent_id: C, agent_name: 'Chen', sessions: 0 },
    ])
    expect(s.by_hour).toHaveLength(24)
    expect(s.by_hour.map((h) => h.hour)).toEqual(Array.from({ length: 24 }, (_, i) => i))
    expect(Object.fromEntries(s.by_hour.filter((h) => h.sessions > 0).map((h) => [h.hour, h.sessions]))).toEqual({ 1: 1, 3: 2, 5: 1, 9: 1 })
    expect(s.by_day).toEqual([{ date: DAY, sessions: 5 }])
    expect(s.by_language).toEqual([
      { language: 'en', sessions: 3 },
      { language: 'es', sessions: 1 },
      { language: 'fr', sessions: 1 },
    ])
    expect(s.by_channel).toEqual([
      { channel: 'voice', sessions: 3 },
      { channel: 'chat', sessions: 2 },
    ])
  })

  it('includes both bounds of the period, to the millisecond', async () => {
    const result = await analytics({ start_date: '2026-10-31T23:59:59.999Z', end_date: '2026-11-01T10:00:00.001Z' })
    expect(result.session_distribution.total_sessions).toBe(7)
    expect(result.transfer_statistics.total).toBe(4)
    expect(result.session_distribution.by_day).toEqual([
      { date: '2026-10-31', sessions: 1 },
      { date: DAY, sessions: 6 },
    ])
  })
})

describe('squad analytics: percentiles', () => {
  const latencies = (values: number[]) => {
    handle.sqlite.prepare('delete from transfers').run()
    values.forEach((latency_ms, i) => transfer(`p${i}`, { latency_ms, requested_at: at(`05:00:${String(i).padStart(2, '0')}`) }))
    // A failed transfer's wait is no time to transfer: it must not move the percentile.
    transfer('failed', { outcome: 'failed', latency_ms: 99_999, requested_at: at('05:30:00') })
  }

  it('p90 is the nearest rank: ceil(0.9 × n) in ascending order', async () => {
    latencies([700, 100, 1000, 300, 200, 900, 400, 600, 500, 800]) // n = 10 → rank 9
    expect((await analytics()).transfer_statistics).toMatchObject({ p90_time_to_transfer_ms: 900, mean_time_to_transfer_ms: 550, total: 11, successful: 10 })
    latencies([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100]) // n = 11 → rank ceil(9.9) = 10
    expect((await analytics()).transfer_statistics.p90_time_to_transfer_ms).toBe(1000)
    latencies(Array.from({ length: 30 }, (_, i) => (i + 1) * 10)) // n = 30 → rank 27 (0.9 × 30 is 27.000000000000004 in floating point)
    expect((await analytics()).transfer_statistics.p90_time_to_transfer_ms).toBe(270)
    latencies([4242]) // n = 1 → that one
    expect((await analytics()).transfer_statistics.p90_time_to_transfer_ms).toBe(4242)
  })
})

describe('squad analytics: empty', () => {
  const zeroHours = Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: 0 }))
  const noTransfers = { total: 0, successful: 0, failed: 0, success_rate: 0, mean_time_to_transfer_ms: 0, p90_time_to_transfer_ms: 0, by_reason: [], matrix: [] }

  it('a squad without members or sessions gives zeros and empty lists, never NaN', async () => {
    const result = await analytics(TEN_HOURS, EMPTY_SQUAD)
    expect(squadAnalyticsSchema.strict().parse(result)).toEqual(result)
    expect(result).toMatchObject({
      routing_strategy: 'priority',
      transfer_statistics: noTransfers,
      member_utilization: [],
      routing_strategy_performance: [],
      session_distribution: { total_sessions: 0, by_member: [], by_hour: zeroHours, by_day: [{ date: DAY, sessions: 0 }], by_language: [], by_channel: [] },
    })
    expect(JSON.stringify(result)).not.toMatch(/NaN|null/)
  })

  it('a period without activity lists the members with zeros', async () => {
    const result = await analytics({ start_date: '2026-06-01', end_date: '2026-06-02' })
    expect(result.period).toEqual({ start: '2026-06-01T00:00:00.000Z', end: '2026-06-02T23:59:59.999Z', hours: 48 })
    expect(result.transfer_statistics).toEqual(noTransfers)
    expect(result.member_utilization.map((m) => [m.agent_name, m.sessions_handled, m.utilization_pct, m.transfers_in])).toEqual([
      ['Aria', 0, 0, 0],
      ['Mateo', 0, 0, 0],
      ['Chen', 0, 0, 0],
    ])
    expect(result.routing_strategy_performance).toEqual([])
    expect(result.session_distribution).toEqual({
      total_sessions: 0,
      by_member: [
        { agent_id: A, agent_name: 'Aria', sessions: 0 },
        { agent_id: C, agent_name: 'Chen', sessions: 0 },
        { agent_id: B, agent_name: 'Mateo', sessions: 0 },
      ],
      by_hour: zeroHours,
      by_day: [{ date: '2026-06-01', sessions: 0 }, { date: '2026-06-02', sessions: 0 }],
      by_language: [],
      by_channel: [],
    })
  })
})

describe('squad analytics: period', () => {
  it('defaults to the 30 days ending now', async () => {
    session('recent', { agent_id: A, created_at: '2026-10-21T12:00:00.001Z', ended_at: null })
    const result = await analytics({})
    expect(result.period).toEqual({ start: '2026-10-21T12:00:00.000Z', end: '2026-11-20T12:00:00.000Z', hours: 720 })
    // The fixture's 1 November sessions and the recent one; o1 (31 October) too.
    expect(result.session_distribution.total_sessions).toBe(8)
    expect(result.session_distribution.by_day).toHaveLength(31)
    expect(result.session_distribution.by_day[0]).toEqual({ date: '2026-10-21', sessions: 1 })
  })

  it('takes the other bound from the one given; a bare end date includes its whole day', () => {
    const q = (query: Record<string, string>) => resolvePeriod(squadAnalyticsQuerySchema.parse(query), NOW)
    expect(q({ end_date: '2026-11-10' })).toEqual({ start: '2026-10-11T23:59:59.999Z', end: '2026-11-10T23:59:59.999Z', lengthMs: 30 * 86_400_000 + 1 })
    expect(q({ start_date: '2026-11-01' })).toMatchObject({ start: '2026-11-01T00:00:00.000Z', end: '2026-11-20T12:00:00.000Z' })
    expect(q({ start_date: '2026-11-01', end_date: '2026-11-01' })).toEqual({ start: '2026-11-01T00:00:00.000Z', end: '2026-11-01T23:59:59.999Z', lengthMs: 86_400_000 })
    // A start after now with no end: an empty period at the start, not an error.
    expect(q({ start_date: '2026-12-01' })).toEqual({ start: '2026-12-01T00:00:00.000Z', end: '2026-12-01T00:00:00.000Z', lengthMs: 1 })
  })

  it('rejects an end before the start as a value_error on end_date, in both query schemas', () => {
    for (const schema of [squadAnalyticsQuerySchema, squadAnalyticsInputSchema]) {
      const parsed = schema.safeParse({ squadId: IDS.squad, start_date: '2026-11-02', end_date: '2026-11-01' })
      expect(parsed.success).toBe(false)
      expect(parsed.error!.issues).toEqual([expect.objectContaining({ path: ['end_date'], params: expect.objectContaining({ type: 'value_error' }) })])
    }
  })

  it('counts long periods by grouping and short ones by hour seeks, with the same result', async () => {
    const long = { start: '2026-01-01T00:00:00.000Z', end: '2026-11-30T23:59:59.999Z' } // 8,016 hours
    const grouped = await repo.sessionTimeline(handle.db, IDS.squad, long, 0)
    const seeked = await repo.sessionTimeline(handle.db, IDS.squad, long, 1_000_000)
    expect(seeked.filter((r) => r.kind === 'day')).toHaveLength(334)
    expect(grouped).toEqual(seeked.filter((r) => r.sessions > 0))
    const result = await analytics({ start_date: '2026-01-01', end_date: '2026-11-30' })
    expect(result.session_distribution.total_sessions).toBe(7)
    expect(result.session_distribution.by_day).toHaveLength(334)
    expect(result.session_distribution.by_day.filter((d) => d.sessions > 0)).toEqual([
      { date: '2026-10-31', sessions: 1 },
      { date: DAY, sessions: 6 },
    ])
    expect(result.session_distribution.by_hour.reduce((n, h) => n + h.sessions, 0)).toBe(7)
  })
})

describe('squad analytics: access', () => {
  it('an unknown squad is not found', async () => {
    await expect(analytics(TEN_HOURS, '99999999-9999-4999-8999-999999999999')).rejects.toThrow(new NotFoundError('Squad'))
  })

  it("a tenant token sees its tenant's squads only; another tenant's squad is not found", async () => {
    expect((await analytics(TEN_HOURS, IDS.squad, TENANT)).squad_id).toBe(IDS.squad)
    await expect(analytics(TEN_HOURS, IDS.squad, OTHER_TENANT)).rejects.toThrow('Squad not found')
    await expect(analytics(TEN_HOURS, FOREIGN_SQUAD, TENANT)).rejects.toThrow('Squad not found')
    expect((await analytics(TEN_HOURS, FOREIGN_SQUAD, OTHER_TENANT)).squad_name).toBe('Globex desk')
  })
})

describe('squad analytics: query plans', () => {
  /** The SQL the repo sends, captured by a logging kysely over the same connection. */
  async function captured(run: (db: Kysely<Database>) => Promise<unknown>) {
    const queries: Array<{ sql: string; parameters: readonly unknown[] }> = []
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: handle.sqlite }),
      log: (event) => void (event.level === 'query' && queries.push(event.query)),
    })
    await run(db)
    return queries.map((q) => ({
      plan: (handle.sqlite.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ detail: string }>).map((r) => r.detail),
      opcodes: handle.sqlite.prepare(`explain ${q.sql}`).all(...(q.parameters as unknown[])) as Array<{ opcode: string; p4: unknown }>,
    }))
  }
  const period = { start: '2026-10-01T00:00:00.000Z', end: '2026-11-01T00:00:00.000Z' }

  it('aggregates sessions from the covering index without a sort and without parsing timestamps', async () => {
    const [q] = await captured((db) => repo.sessionGroups(db, IDS.squad, period))
    expect(q!.plan).toEqual(['SEARCH c USING COVERING INDEX conversations_squad_analytics (squad_id=?)'])
    // The handle time is read from the index, not computed per row.
    expect(q!.opcodes.filter((o) => String(o.p4).startsWith('julianday'))).toEqual([])
  })

  it('counts the timeline by index range seeks and reads transfers from their covering index', async () => {
    const plans = await captured(async (db) => {
      await repo.sessionTimeline(db, IDS.squad, period, 0)
      await repo.transfersByReason(db, IDS.squad, period)
      await repo.transferMatrix(db, IDS.squad, period)
      await repo.successLatencyAtRank(db, IDS.squad, period, 1)
    })
    expect(plans[0]!.plan).toContain('SEARCH c USING COVERING INDEX conversations_squad_created (squad_id=? AND created_at>? AND created_at<?)')
    for (const { plan } of plans.slice(1)) {
      expect(plan).toContain('SEARCH t USING COVERING INDEX transfers_squad_analytics (squad_id=? AND requested_at>? AND requested_at<?)')
    }
  })
})
