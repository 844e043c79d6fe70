import { type Kysely, type QueryCreator, type RawBuilder, sql } from 'kysely'
import { forStore } from '../../db/store-kind'
import { storeSql } from '../../db/store-sql'
import { postgresSquadsSql, type SquadsSql, sqliteSquadsSql } from './squads.sql'
import type { Database } from '../../db/schema'

/*
 * Squad analytics queries. Every figure is aggregated by the store; the service only reshapes the
 * aggregated rows. Bounds are inclusive ISO 8601 UTC instants (text comparison is time comparison
 * on SQLite; timestamptz on PostgreSQL). Store-specific: handle time and the pulled answers' JSON
 * (squads.sql.ts) and the time fragments of db/store-sql.ts.
 *
 * Plans (see migration 0002): sessions are aggregated from the covering index
 * conversations_squad_analytics in one pass without a temporary sort; the hourly timeline counts
 * index ranges of conversations_squad_created; transfers read the covering index
 * transfers_squad_analytics bounded by the period.
 */

export interface Period {
  /** First instant included. */
  start: string
  /** Last instant included. */
  end: string
}

export function findSquad(db: Kysely<Database>, squadId: string) {
  return db
    .selectFrom('squads')
    .select(['id', 'tenant_id', 'name', 'routing_strategy'])
    .where('id', '=', squadId)
    .executeTakeFirst()
}

/** Squads with their tenant's name and member count, by tenant name then squad name; one tenant's when `tenantId` is set. */
export function listSquads(db: Kysely<Database>, tenantId: string | null) {
  let query = db
    .selectFrom('squads as s')
    .innerJoin('tenants as t', 't.id', 's.tenant_id')
    .select((eb) => [
      's.id',
      's.name',
      's.tenant_id',
      't.name as tenant_name',
      's.routing_strategy',
      eb.selectFrom('squad_members as m').select((m) => m.fn.countAll<number>().as('n')).whereRef('m.squad_id', '=', 's.id').as('member_count'),
    ])
  if (tenantId !== null) query = query.where('s.tenant_id', '=', tenantId)
  return query.orderBy('t.name').orderBy('s.name').orderBy('s.id').execute()
}

/** A squad's analytics as the latest pull fetched them, from any source or from `source`; undefined when none did. */
export function findPulledAnalytics(db: Kysely<Database>, squadId: string, source?: string) {
  let query = db
    .selectFrom('pulled_squad_analytics')
    .select(['source', 'squad_id', 'tenant_id', 'period_start', 'period_end', 'body', 'fetched_at', 'default_body', 'default_fetched_at'])
    .where('squad_id', '=', squadId)
  if (source !== undefined) query = query.where('source', '=', source)
  return query.orderBy('fetched_at', 'desc').limit(1).executeTakeFirst()
}

/**
 * Squads known only from pulled analytics (no local squad of that id), the latest fetch of each,
 * with what the answer says of them when it is in Callscope's shape. One tenant's when `tenantId` is set.
 */
export function listPulledSquads(db: Kysely<Database>, tenantId: string | null, source?: string) {
  let query = db
    .selectFrom('pulled_squad_analytics as p')
    // The analytics' tenant as the same backend has it, else a local tenant of that id.
    .leftJoin('tenant_rows as t', (j) => j.onRef('t.id', '=', 'p.tenant_id').onRef('t.source', '=', 'p.source'))
    .leftJoin('tenants as l', 'l.id', 'p.tenant_id')
    .select([
      'p.squad_id as id',
      'p.squad_name as name',
      'p.tenant_id',
      (eb) => eb.fn.coalesce('t.name', 'l.name').as('tenant_name'),
      squadsSql(db).pulledRoutingStrategy().as('routing_strategy'),
      squadsSql(db).pulledMemberCount().as('member_count'),
      'p.source',
      'p.fetched_at',
    ])
    .where(({ not, exists, selectFrom }) => {
      // The latest fetch of each squad, of one source when the caller names one.
      let later = selectFrom('pulled_squad_analytics as q').select('q.squad_id').whereRef('q.squad_id', '=', 'p.squad_id').whereRef('q.fetched_at', '>', 'p.fetched_at')
      if (source !== undefined) later = later.whereRef('q.source', '=', 'p.source')
      return not(exists(later))
    })
  // Across every source a local squad of the same id shadows a pulled one; within one source it does not.
  if (source === undefined) query = query.where(({ not, exists, selectFrom }) => not(exists(selectFrom('squads as s').select('s.id').whereRef('s.id', '=', 'p.squad_id'))))
  else query = query.where('p.source', '=', source)
  if (tenantId !== null) query = query.where('p.tenant_id', '=', tenantId)
  return query.orderBy('p.squad_id').execute()
}

/** The squad's current members with their names, by priority, then name. */
export function listMembers(db: Kysely<Database>, squadId: string) {
  return db
    .selectFrom('squad_members as m')
    .innerJoin('agents as a', 'a.id', 'm.agent_id')
    .select(['m.agent_id', 'a.name as agent_name', 'm.role', 'm.priority'])
    .where('m.squad_id', '=', squadId)
    .orderBy('m.priority')
    .orderBy('a.name')
    .orderBy('m.agent_id')
    .execute()
}

export function agentNames(db: Kysely<Database>, agentIds: readonly string[]) {
  if (agentIds.length === 0) return Promise.resolve([])
  return db.selectFrom('agents').select(['id', 'name']).where('id', 'in', agentIds).execute()
}

/**
 * The squad's sessions created in the period, aggregated per (agent, routing strategy, channel,
 * language): at most a few hundred rows from which the service sums every per-member, per-strategy,
 * per-channel and per-language figure. The GROUP BY follows the index's key order, which is what
 * lets SQLite aggregate while it walks the index instead of sorting the rows first.
 */
export function sessionGroups(db: Kysely<Database>, squadId: string, period: Period) {
  const { unindexed } = storeSql(db)
  const { handleMsSum, resolvedSum } = squadsSql(db)
  return db
    .selectFrom('conversations as c')
    .select((eb) => [
      'c.agent_id',
      'c.routing_strategy',
      'c.channel',
      'c.language',
      eb.fn.countAll<number>().as('sessions'),
      eb.fn.count<number>('c.ended_at').as('ended_sessions'),
      handleMsSum().as('handle_ms'),
      eb.fn.sum<number | null>('c.wait_ms').as('wait_ms_sum'),
      eb.fn.count<number>('c.wait_ms').as('wait_count'),
      resolvedSum().as('resolved'),
      eb.fn.count<number>('c.resolved').as('outcome_known'),
      sql<number>`sum(case when c.status = 'transferred' then 1 else 0 end)`.as('transferred'),
    ])
    .where('c.squad_id', '=', squadId)
    // Unary + keeps SQLite from seeking created_at in conversations_squad_created and then sorting
    // the rows for the GROUP BY: the period is checked inside the covering index instead.
    .where(unindexed(sql.ref<string>('c.created_at')), '>=', period.start)
    .where(unindexed(sql.ref<string>('c.created_at')), '<=', period.end)
    .groupBy(['c.agent_id', 'c.routing_strategy', 'c.channel', 'c.language'])
    .execute()
}

/** Sessions per clock hour of the period: the input of both timeline sums. */
interface HourlyCounts {
  hourly: { day: string; hour: number; sessions: number }
}

/** Periods up to this many hours always count each hour by an index seek. */
export const TIMELINE_SEEK_MAX_HOURS = 2_400

/**
 * Session counts per UTC hour of day (at most 24 rows, kind 'hour') and per UTC day (kind 'day';
 * days without sessions may be missing), over the period.
 *
 * Two plans, the same answer. Hour seeks: a recursive CTE cuts the period into clock hours and
 * each hour counts its own index range, so nothing is sorted; it costs about 2 µs per hour plus a
 * little per session. Grouping: the sessions are grouped by hour, a sort that costs about 0.3 µs
 * per session. Seeks are used up to TIMELINE_SEEK_MAX_HOURS, and beyond that while the period has
 * fewer hours than an eighth of its sessions (`sessions`, known from sessionGroups), so a ten-year
 * period does not pay for 90,000 empty hours. Either way the two sums run over hourly counts.
 */
export function sessionTimeline(db: Kysely<Database>, squadId: string, period: Period, sessions: number) {
  const hours = (Date.parse(period.end) - Date.parse(period.start)) / 3_600_000
  const bySeeks = hours <= Math.max(TIMELINE_SEEK_MAX_HOURS, sessions / 8)
  const withHourly = bySeeks ? hourlyBySeeks(db, squadId, period) : hourlyByGrouping(db, squadId, period)
  return withHourly
    .selectFrom('hourly')
    .select((eb) => [
      sql<'hour' | 'day'>`'hour'`.as('kind'),
      sql<number | null>`hour`.as('hour'),
      sql<string | null>`null`.as('day'),
      eb.fn.sum<number>('sessions').as('sessions'),
    ])
    .groupBy('hour')
    .unionAll((qc) =>
      qc
        .selectFrom('hourly')
        .select((eb) => [
          sql<'hour' | 'day'>`'day'`.as('kind'),
          sql<number | null>`null`.as('hour'),
          sql<string | null>`day`.as('day'),
          eb.fn.sum<number>('sessions').as('sessions'),
        ])
        .groupBy('day'),
    )
    .orderBy('kind')
    .orderBy('day')
    .orderBy('hour')
    .execute()
}

function hourlyBySeeks(db: Kysely<Database>, squadId: string, period: Period): QueryCreator<Database & HourlyCounts> {
  const { utcHourStart, utcNextHourStart, greatest, least, utcDay, utcHourOfDay } = storeSql(db)
  // Each hour counts [lower, upper): the clock hour clipped to the period. Both bounds are plain
  // values per hour, so every count is one range seek in conversations_squad_created.
  const endExclusive = new Date(Date.parse(period.end) + 1).toISOString()
  return db
    .withRecursive('hours(hour_start, hour_end)', (qc) =>
      qc
        .selectNoFrom([
          utcHourStart(period.start).as('hour_start'),
          utcNextHourStart(period.start).as('hour_end'),
        ])
        .unionAll(
          qc
            .selectFrom('hours')
            .select([sql.ref<string>('hour_end').as('hour_start'), utcNextHourStart(sql.ref<string>('hour_end')).as('hour_end')])
            .where('hour_end', '<=', period.end),
        ),
    )
    .with('bounds', (qc) =>
      qc
        .selectFrom('hours')
        .select([
          'hour_start',
          greatest(sql.ref<string>('hour_start'), period.start).as('lower'),
          least(sql.ref<string>('hour_end'), endExclusive).as('upper'),
        ]),
    )
    .with(
      (cte) => cte('hourly').materialized(),
      (qc) =>
        qc.selectFrom('bounds as h').select((eb) => [
          utcDay(sql.ref<string>('h.hour_start')).as('day'),
          utcHourOfDay(sql.ref<string>('h.hour_start')).as('hour'),
          eb
            .selectFrom('conversations as c')
            .select((c) => c.fn.countAll<number>().as('n'))
            .where('c.squad_id', '=', squadId)
            .whereRef('c.created_at', '>=', 'h.lower')
            .whereRef('c.created_at', '<', 'h.upper')
            .$castTo<number>()
            .as('sessions'),
        ]),
    ) as unknown as QueryCreator<Database & HourlyCounts>
}

function hourlyByGrouping(db: Kysely<Database>, squadId: string, period: Period): QueryCreator<Database & HourlyCounts> {
  const { utcDayHour, utcDay, utcHourOfDay } = storeSql(db)
  const dayHour = utcDayHour(sql.ref<string>('c.created_at'))
  const perHour = db
    .selectFrom('conversations as c')
    .select((eb) => [dayHour.as('day_hour'), eb.fn.countAll<number>().as('sessions')])
    .where('c.squad_id', '=', squadId)
    .where('c.created_at', '>=', period.start)
    .where('c.created_at', '<=', period.end)
    .groupBy(dayHour)
  return db.with(
    (cte) => cte('hourly').materialized(),
    (qc) =>
      qc
        .selectFrom(perHour.as('p'))
        .select([
          utcDay(sql.ref<string>('p.day_hour')).as('day'),
          utcHourOfDay(sql.ref<string>('p.day_hour')).as('hour'),
          'p.sessions',
        ]),
  ) as unknown as QueryCreator<Database & HourlyCounts>
}

const transfersInPeriod = (db: Kysely<Database>, squadId: string, period: Period) =>
  db
    .selectFrom('transfers as t')
    .where('t.squad_id', '=', squadId)
    .where('t.requested_at', '>=', period.start)
    .where('t.requested_at', '<=', period.end)

/**
 * Per reason: transfers, successful ones and the sum of their latencies; the service adds the
 * reasons up for the totals (at most six rows), so the period's transfers are read once for both.
 */
export function transfersByReason(db: Kysely<Database>, squadId: string, period: Period) {
  return transfersInPeriod(db, squadId, period)
    .select((eb) => [
      't.reason',
      eb.fn.countAll<number>().as('count'),
      sql<number>`sum(case when t.outcome = 'success' then 1 else 0 end)`.as('successful'),
      sql<number>`sum(case when t.outcome = 'success' then t.latency_ms else 0 end)`.as('success_latency_ms_sum'),
    ])
    .groupBy('t.reason')
    .orderBy('count', 'desc')
    .orderBy('t.reason')
    .execute()
}

/** Transfers per (from agent, to agent) pair, with both names. */
export function transferMatrix(db: Kysely<Database>, squadId: string, period: Period) {
  const pairs = transfersInPeriod(db, squadId, period)
    .select((eb) => [
      't.from_agent_id',
      't.to_agent_id',
      eb.fn.countAll<number>().as('count'),
      sql<number>`sum(case when t.outcome = 'success' then 1 else 0 end)`.as('successful'),
    ])
    .groupBy(['t.from_agent_id', 't.to_agent_id'])
  return db
    .selectFrom(pairs.as('p'))
    .innerJoin('agents as f', 'f.id', 'p.from_agent_id')
    .innerJoin('agents as r', 'r.id', 'p.to_agent_id')
    .select(['p.from_agent_id', 'f.name as from_agent_name', 'p.to_agent_id', 'r.name as to_agent_name', 'p.count', 'p.successful'])
    .orderBy('p.count', 'desc')
    .orderBy('f.name')
    .orderBy('r.name')
    .orderBy('p.from_agent_id')
    .orderBy('p.to_agent_id')
    .execute()
}

/**
 * The latency at 1-based `rank` in ascending order among the period's successful transfers
 * (ORDER BY … LIMIT 1 OFFSET rank − 1): the nearest-rank percentile once the caller picks the rank.
 */
export async function successLatencyAtRank(db: Kysely<Database>, squadId: string, period: Period, rank: number) {
  const row = await transfersInPeriod(db, squadId, period)
    .select('t.latency_ms')
    .where('t.outcome', '=', 'success')
    .orderBy('t.latency_ms')
    .limit(1)
    .offset(rank - 1)
    .executeTakeFirst()
  return row?.latency_ms ?? null
}

/** The squad fragments for the store `db` runs on. */
const squadsSql = (db: Kysely<Database>): SquadsSql => forStore(db, { sqlite: sqliteSquadsSql, postgres: postgresSquadsSql })
