import type { Kysely } from 'kysely'
import {
  SQUAD_ANALYTICS_DEFAULT_DAYS,
  type MemberUtilization,
  type RoutingStrategyPerformance,
  type SquadAnalytics,
  type SquadAnalyticsQuery,
  type TransferStatistics,
  squadAnalyticsSchema,
} from '../../../src-shared/schemas/squad-analytics'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { parsePulled, type PulledFrom } from '../../kit/pulled'
import { canSeeTenant, sourceScope } from '../../kit/access'
import type { Principal } from '../../kit/access'
import * as repo from './squads.repo'

/**
 * Where pulled analytics came from: served as fetched, for the period fetched (issue 15). For a
 * request without dates that is the source's default period as its clock stood at `defaultsAt`
 * (issue 36 pt 5); null for an answer to a request with dates.
 */
export interface PulledMark extends PulledFrom {
  periodStart: string
  periodEnd: string
  defaultsAt: string | null
}

/** One row of the console's squads list; a pulled squad may lack what its answer did not say. */
export interface SquadSummary {
  id: string
  name: string
  tenant_id: string | null
  tenant_name: string | null
  routing_strategy: SquadAnalytics['routing_strategy'] | null
  member_count: number | null
  /** Set for a squad known only from pulled analytics. */
  pulled: PulledFrom | null
}

/**
 * A squad's analytics: computed from the store, or as a pull fetched them (the JSON text as stored).
 * A pulled answer's period is null when it came without dates and does not state its period in
 * Callscope's shape.
 */
export type SquadAnswer =
  | { kind: 'computed'; analytics: SquadAnalytics }
  | { kind: 'pulled'; json: string; pulled: Omit<PulledMark, 'periodStart' | 'periodEnd'> & { periodStart: string | null; periodEnd: string | null } }

/** Squad analytics in the console: computed, or pulled ones in Callscope's shape, with where they came from. */
export type SquadAnalyticsView = SquadAnalytics & { pulled: PulledMark | null }

/** The period an answer in Callscope's shape states (`period.start`, `period.end`); null for another shape. */
function statedPeriod(json: string): { start: string; end: string } | null {
  const period = (JSON.parse(json) as { period?: unknown }).period as { start?: unknown; end?: unknown } | undefined
  return typeof period?.start === 'string' && typeof period.end === 'string' ? { start: period.start, end: period.end } : null
}

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000

type Strategy = RoutingStrategyPerformance['strategy']
type Channel = SquadAnalytics['session_distribution']['by_channel'][number]['channel']
type SessionGroup = Awaited<ReturnType<typeof repo.sessionGroups>>[number]

/** Rates: 0..1 with 4 decimals, 0 when there is nothing to divide by (never NaN). */
const ratio = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0)
const round = (value: number, decimals: number): number => {
  const f = 10 ** decimals
  return Math.round(value * f) / f
}
const num = (value: number | string | bigint | null | undefined): number => Number(value ?? 0)

export interface SquadsServiceOptions {
  /** Milliseconds since the epoch: the end of the default period. Tests pin it. */
  now?: () => number
}

/**
 * The period analysed. Both bounds are inclusive instants at millisecond resolution, so the period
 * is `end − start + 1 ms` long (a whole-day range is exactly n × 24 h). end_date defaults to now
 * (or to start_date, when that lies in the future); start_date to 30 days before the end.
 */
export function resolvePeriod(query: SquadAnalyticsQuery, nowMs: number): repo.Period & { lengthMs: number } {
  const startGiven = query.start_date ? Date.parse(query.start_date) : null
  const endMs = query.end_date ? Date.parse(query.end_date) : Math.max(nowMs, startGiven ?? nowMs)
  const startMs = startGiven ?? endMs - SQUAD_ANALYTICS_DEFAULT_DAYS * DAY_MS
  return {
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    lengthMs: endMs - startMs + 1,
  }
}

/** Every UTC date (YYYY-MM-DD) from the period's first day to its last, oldest first. */
function daysOf(period: repo.Period): string[] {
  const days: string[] = []
  const last = period.end.slice(0, 10)
  for (let t = Date.parse(period.start.slice(0, 10)); ; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10)
    days.push(day)
    if (day >= last) return days
  }
}

/** Sums of the per-(agent, strategy, channel, language) session rows along one of those keys. */
function sumBy<K>(groups: readonly SessionGroup[], key: (g: SessionGroup) => K) {
  const totals = new Map<K, { sessions: number; ended: number; handleMs: number; waitSum: number; waitCount: number; resolved: number; outcomeKnown: number; transferred: number }>()
  for (const g of groups) {
    const k = key(g)
    const t = totals.get(k) ?? { sessions: 0, ended: 0, handleMs: 0, waitSum: 0, waitCount: 0, resolved: 0, outcomeKnown: 0, transferred: 0 }
    t.sessions += num(g.sessions)
    t.ended += num(g.ended_sessions)
    t.handleMs += num(g.handle_ms)
    t.waitSum += num(g.wait_ms_sum)
    t.waitCount += num(g.wait_count)
    t.resolved += num(g.resolved)
    t.outcomeKnown += num(g.outcome_known)
    t.transferred += num(g.transferred)
    totals.set(k, t)
  }
  return totals
}

/** Most first, then by label (code-point order, not locale), so equal counts list in a stable order. */
const bySessionsThen = <T extends { sessions: number }>(label: (item: T) => string) => (a: T, b: T) => {
  const x = label(a)
  const y = label(b)
  return b.sessions - a.sessions || (x < y ? -1 : x > y ? 1 : 0)
}

export function createSquadsService(db: Kysely<Database>, options: SquadsServiceOptions = {}) {
  const now = options.now ?? Date.now

  async function transferStatistics(squadId: string, period: repo.Period): Promise<{ stats: TransferStatistics; matrix: Awaited<ReturnType<typeof repo.transferMatrix>> }> {
    const [reasons, matrix] = await Promise.all([
      repo.transfersByReason(db, squadId, period),
      repo.transferMatrix(db, squadId, period),
    ])
    const total = reasons.reduce((n, r) => n + num(r.count), 0)
    const successful = reasons.reduce((n, r) => n + num(r.successful), 0)
    const successLatencySum = reasons.reduce((n, r) => n + num(r.success_latency_ms_sum), 0)
    // Nearest rank: the value at rank ceil(0.9 × n) among the n ascending latencies (integer maths).
    const p90 = successful > 0 ? await repo.successLatencyAtRank(db, squadId, period, Math.ceil((9 * successful) / 10)) : null
    return {
      matrix,
      stats: {
        total,
        successful,
        failed: total - successful,
        success_rate: ratio(successful, total),
        mean_time_to_transfer_ms: successful > 0 ? Math.round(successLatencySum / successful) : 0,
        p90_time_to_transfer_ms: num(p90),
        by_reason: reasons.map((r) => ({
          reason: r.reason as TransferStatistics['by_reason'][number]['reason'],
          count: num(r.count),
          successful: num(r.successful),
          failed: num(r.count) - num(r.successful),
          success_rate: ratio(num(r.successful), num(r.count)),
        })),
        matrix: matrix.map((m) => ({
          from_agent_id: m.from_agent_id,
          from_agent_name: m.from_agent_name,
          to_agent_id: m.to_agent_id,
          to_agent_name: m.to_agent_name,
          count: num(m.count),
          successful: num(m.successful),
          failed: num(m.count) - num(m.successful),
        })),
      },
    }
  }

  /**
   * Transfer statistics, member utilization, routing strategy performance and session
   * distribution of one squad over a period (default: the last 30 days). Definitions: docs/api.md.
   */
  async function analytics(principal: Principal, squadId: string, query: SquadAnalyticsQuery): Promise<SquadAnalytics> {
    const squad = await repo.findSquad(db, squadId)
    if (!squad || !canSeeTenant(principal, squad.tenant_id)) throw new NotFoundError('Squad')
    const period = resolvePeriod(query, now())

    const [members, groups, transfers] = await Promise.all([
      repo.listMembers(db, squadId),
      repo.sessionGroups(db, squadId, period),
      transferStatistics(squadId, period),
    ])
    const totalSessions = groups.reduce((n, g) => n + num(g.sessions), 0)
    const timeline = await repo.sessionTimeline(db, squadId, period, totalSessions)

    const perAgent = sumBy(groups, (g) => g.agent_id)
    const memberIds = new Set(members.map((m) => m.agent_id))
    const otherAgentIds = [...perAgent.keys()].filter((id) => !memberIds.has(id))
    const names = new Map<string, string>(members.map((m) => [m.agent_id, m.agent_name]))
    for (const a of await repo.agentNames(db, otherAgentIds)) names.set(a.id, a.name)

    const transfersIn = new Map<string, number>()
    const transfersOut = new Map<string, number>()
    for (const cell of transfers.matrix) {
      transfersOut.set(cell.from_agent_id, (transfersOut.get(cell.from_agent_id) ?? 0) + num(cell.count))
      transfersIn.set(cell.to_agent_id, (transfersIn.get(cell.to_agent_id) ?? 0) + num(cell.count))
    }

    const memberUtilization: MemberUtilization[] = members.map((m) => {
      const a = perAgent.get(m.agent_id)
      const handleMs = Math.round(a?.handleMs ?? 0)
      return {
        agent_id: m.agent_id,
        agent_name: m.agent_name,
        role: m.role as MemberUtilization['role'],
        priority: m.priority,
        sessions_handled: a?.sessions ?? 0,
        ended_sessions: a?.ended ?? 0,
        total_handle_time_ms: handleMs,
        mean_handle_time_ms: a && a.ended > 0 ? Math.round(a.handleMs / a.ended) : 0,
        utilization_pct: round((handleMs / period.lengthMs) * 100, 2),
        transfers_in: transfersIn.get(m.agent_id) ?? 0,
        transfers_out: transfersOut.get(m.agent_id) ?? 0,
      }
    })

    const strategies: RoutingStrategyPerformance[] = [...sumBy(groups, (g) => g.routing_strategy as Strategy)]
      .map(([strategy, s]) => ({
        strategy,
        is_current: strategy === squad.routing_strategy,
        sessions: s.sessions,
        mean_wait_ms: s.waitCount > 0 ? Math.round(s.waitSum / s.waitCount) : 0,
        resolution_rate: ratio(s.resolved, s.outcomeKnown),
        transfer_rate: ratio(s.transferred, s.sessions),
      }))
      .sort(bySessionsThen((s) => s.strategy ?? '~'))

    const byMember = [...members.map((m) => m.agent_id), ...otherAgentIds]
      .map((id) => ({ agent_id: id, agent_name: names.get(id) ?? '', sessions: perAgent.get(id)?.sessions ?? 0 }))
      .sort(bySessionsThen((m) => `${m.agent_name}\u0000${m.agent_id}`))

    // Fill the aggregated counts into the full series: 24 hours, every day the period touches.
    const byHour = Array.from({ length: 24 }, (_, hour) => ({ hour, sessions: 0 }))
    const dayCounts = new Map<string, number>()
    for (const row of timeline) {
      if (row.kind === 'hour' && row.hour !== null) byHour[row.hour]!.sessions = num(row.sessions)
      else if (row.kind === 'day' && row.day !== null) dayCounts.set(row.day, num(row.sessions))
    }
    const byDay = daysOf(period).map((date) => ({ date, sessions: dayCounts.get(date) ?? 0 }))

    return {
      squad_id: squad.id,
      squad_name: squad.name,
      tenant_id: squad.tenant_id,
      routing_strategy: squad.routing_strategy as SquadAnalytics['routing_strategy'],
      period: { start: period.start, end: period.end, hours: round(period.lengthMs / HOUR_MS, 3) },
      transfer_statistics: transfers.stats,
      member_utilization: memberUtilization,
      routing_strategy_performance: strategies,
      session_distribution: {
        total_sessions: totalSessions,
        by_member: byMember,
        by_hour: byHour,
        by_day: byDay,
        by_language: [...sumBy(groups, (g) => g.language)]
          .map(([language, s]) => ({ language, sessions: s.sessions }))
          .sort(bySessionsThen((l) => l.language)),
        by_channel: [...sumBy(groups, (g) => g.channel)]
          .map(([channel, s]) => ({ channel: channel as Channel, sessions: s.sessions }))
          .sort(bySessionsThen((c) => c.channel)),
      },
    }
  }

  /**
   * A local squad's analytics computed for the period asked; else, for a squad only a pull knows,
   * its analytics as fetched (aggregates no pulled row recomputes): without dates, the source's own
   * date-less answer (its default period, by its clock when the pull asked: issue 36 pt 5); with
   * dates, or from a pull that did not fetch that answer, the answer for the pull's range.
   */
  async function answer(principal: Principal, squadId: string, query: SquadAnalyticsQuery): Promise<SquadAnswer> {
    const source = sourceScope(principal)
    if ((source === undefined || source === '') && (await repo.findSquad(db, squadId))) return { kind: 'computed', analytics: await analytics(principal, squadId, query) }
    const pulled = source === '' ? undefined : await repo.findPulledAnalytics(db, squadId, source)
    if (!pulled || !canSeeTenant(principal, pulled.tenant_id)) throw new NotFoundError('Squad')
    const from = { source: pulled.source, fetchedAt: pulled.fetched_at }
    if (query.start_date === undefined && query.end_date === undefined && pulled.default_body !== null && pulled.default_fetched_at !== null) {
      const period = statedPeriod(pulled.default_body)
      return { kind: 'pulled', json: pulled.default_body, pulled: { source: pulled.source, fetchedAt: pulled.default_fetched_at, periodStart: period?.start ?? null, periodEnd: period?.end ?? null, defaultsAt: pulled.default_fetched_at } }
    }
    return { kind: 'pulled', json: pulled.body, pulled: { ...from, periodStart: pulled.period_start, periodEnd: pulled.period_end, defaultsAt: null } }
  }

  return {
    analytics,

    /** Squads the principal may see (a tenant token: its tenant's only), for the console's list. */
    async list(principal: Principal): Promise<SquadSummary[]> {
      const source = sourceScope(principal)
      const [local, pulled] = await Promise.all([
        source === undefined || source === '' ? repo.listSquads(db, principal.tenantId) : [],
        source === '' ? [] : repo.listPulledSquads(db, principal.tenantId, source),
      ])
      const rows: SquadSummary[] = [
        ...local.map((r) => ({
          id: r.id,
          name: r.name,
          tenant_id: r.tenant_id,
          tenant_name: r.tenant_name,
          routing_strategy: r.routing_strategy as SquadSummary['routing_strategy'],
          member_count: num(r.member_count),
          pulled: null,
        })),
        ...pulled.map((r) => ({
          id: r.id,
          name: r.name ?? r.id,
          tenant_id: r.tenant_id,
          tenant_name: r.tenant_name,
          routing_strategy: r.routing_strategy as SquadSummary['routing_strategy'],
          member_count: r.member_count === null ? null : num(r.member_count),
          pulled: { source: r.source, fetchedAt: r.fetched_at },
        })),
      ]
      // By tenant, then name (code-point order), then id: local and pulled squads interleaved.
      const key = (r: SquadSummary) => [r.tenant_name ?? '\uffff', r.name, r.id]
      return rows.sort((a, b) => {
        const [x, y] = [key(a), key(b)]
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1
        return 0
      })
    },

    answer,

    /** The console's view of answer(): pulled analytics it can draw only when they are in Callscope's shape. */
    async view(principal: Principal, squadId: string, query: SquadAnalyticsQuery): Promise<SquadAnalyticsView> {
      const a = await answer(principal, squadId, query)
      if (a.kind === 'computed') return { ...a.analytics, pulled: null }
      const parsed = parsePulled(squadAnalyticsSchema, a.json, a.pulled, 'analytics', 'the Data page')
      return { ...parsed, pulled: { ...a.pulled, periodStart: a.pulled.periodStart ?? parsed.period.start, periodEnd: a.pulled.periodEnd ?? parsed.period.end } }
    },

  }
}

export type SquadsService = ReturnType<typeof createSquadsService>
