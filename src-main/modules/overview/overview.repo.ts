import { type Kysely, sql } from 'kysely'
import { storeSql } from '../../db/store-sql'
import type { Database } from '../../db/schema'
import { callLogsSql } from '../call-logs/call-logs.sql'

/**
 * The landing page's aggregates. Every figure is one SQL aggregate (COUNT / GROUP BY), read from
 * an index where one fits; nothing here loops over rows in JavaScript.
 *
 * Scope: `tenantId` null means every tenant (admin and viewer tokens). For calls and sessions the
 * all-tenants case is written `tenant_id in (select id from tenants)`, so SQLite still seeks the
 * (tenant_id, time) indexes, one range per tenant, instead of scanning the table for the period.
 *
 * The SQLite-only fragments (days sliced from ISO text, a count by summing a comparison) come from
 * db/dialect.sqlite.ts; the queries themselves are kysely's and portable.
 */
export type Scope = string | null

const ERROR_LEVELS = ['error', 'critical'] as const

/**
 * Totals of the tables the console is about. Call logs are summed from the store's day counts when
 * it keeps them (PostgreSQL: a count of ten million lines visits each one), else counted here.
 */
export async function counts(db: Kysely<Database>, tenantId: Scope, source?: string) {
  const counted = callLogsSql(db).countedLines
  const [row, lines] = await Promise.all([tableCounts(db, tenantId, source, !counted), counted?.(db, { tenantId, source })])
  return {
    tenants: Number(row.tenants),
    agents: Number(row.agents),
    sessions: Number(row.sessions),
    calls: Number(row.calls),
    call_logs: lines ?? Number(row.call_logs),
  }
}

function tableCounts(db: Kysely<Database>, tenantId: Scope, source: string | undefined, withCallLogs: boolean) {
  const local = source === undefined || source === ''
  return db
    .selectNoFrom((eb) => {
      const n = eb.fn.countAll<number>().as('n')
      const scoped = <Q extends { where: (...args: any[]) => Q }>(q: Q, column: string): Q => (tenantId === null ? q : q.where(column, '=', tenantId))
      const ofSource = <Q extends { where: (...args: any[]) => Q }>(q: Q): Q => (source === undefined ? q : q.where('source', '=', source))
      // Agents, sessions and calls are Callscope's own: none in a pulled backend's scope. `false`,
      // not `0`: PostgreSQL wants a boolean condition, and SQLite reads the keyword as 0.
      const localOnly = <Q extends { where: (...args: any[]) => Q }>(q: Q): Q => (local ? q : q.where(sql<boolean>`false`))
      return [
        ofSource(scoped(eb.selectFrom('tenant_rows').select(n), 'id')).as('tenants'),
        localOnly(scoped(eb.selectFrom('agents').select(n), 'tenant_id')).as('agents'),
        localOnly(scoped(eb.selectFrom('conversations').select(n), 'tenant_id')).as('sessions'),
        localOnly(scoped(eb.selectFrom('calls').select(n), 'tenant_id')).as('calls'),
        (withCallLogs ? ofSource(scoped(eb.selectFrom('call_logs').select(n), 'tenant_id')) : eb.lit(0)).as('call_logs'),
      ]
    })
    .executeTakeFirstOrThrow()
}

/** Calls started since `since`, per UTC day, with how many failed. */
export function callsByDay(db: Kysely<Database>, tenantId: Scope, since: string) {
  const day = storeSql(db).utcDay(sql.ref<string>('started_at'))
  return db
    .selectFrom('calls')
    .select((eb) => [
      day.as('day'),
      eb.fn.countAll<number>().as('calls'),
      storeSql(db).countTrue(eb('status', '=', 'failed')).as('failed'),
    ])
    .where('started_at', '>=', since)
    .where((eb) => (tenantId === null ? eb('tenant_id', 'in', eb.selectFrom('tenants').select('id')) : eb('tenant_id', '=', tenantId)))
    .groupBy(day)
    .orderBy(day)
    .execute()
}

/** Error and critical log lines since `since`, per UTC day (the (log_level, timestamp) index). */
export function errorLogsByDay(db: Kysely<Database>, tenantId: Scope, since: string, source?: string) {
  const day = storeSql(db).utcDay(sql.ref<string>('timestamp'))
  let query = db
    .selectFrom('call_logs')
    .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('errors')])
    .where('log_level', 'in', ERROR_LEVELS)
    .where('timestamp', '>=', since)
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId)
  if (source !== undefined) query = query.where('source', '=', source)
  return query.groupBy(day).orderBy(day).execute()
}

/** The agents with the most sessions started since `since`, most first. */
export function busiestAgents(db: Kysely<Database>, tenantId: Scope, since: string, limit: number) {
  const top = db
    .selectFrom('conversations')
    .select((eb) => ['agent_id', eb.fn.countAll<number>().as('sessions')])
    .where('created_at', '>=', since)
    .where((eb) => (tenantId === null ? eb('tenant_id', 'in', eb.selectFrom('tenants').select('id')) : eb('tenant_id', '=', tenantId)))
    .groupBy('agent_id')
    .orderBy('sessions', 'desc')
    .orderBy('agent_id')
    .limit(limit)
  return db
    .selectFrom(top.as('x'))
    .innerJoin('agents as a', 'a.id', 'x.agent_id')
    .innerJoin('tenants as t', 't.id', 'a.tenant_id')
    .select(['a.id as agent_id', 'a.name as agent_name', 'a.tenant_id', 't.name as tenant_name', 'a.status', 'x.sessions'])
    .orderBy('x.sessions', 'desc')
    .orderBy('x.agent_id')
    .execute()
}

/**
 * The latest error and critical log lines, newest first. One index range per level, each read
 * backwards and cut at `limit`, then merged: no sort over all error lines.
 */
export function recentErrors(db: Kysely<Database>, tenantId: Scope, limit: number, source?: string) {
  const perLevel = (level: (typeof ERROR_LEVELS)[number]) => {
    let q = db
      .selectFrom('call_logs')
      .select(['seq', 'id', 'source', 'tenant_id', 'log_type', 'log_level', 'message', 'timestamp', 'agent_id', 'session_id', 'call_id', 'trace_id'])
      .where('log_level', '=', level)
    if (tenantId !== null) q = q.where('tenant_id', '=', tenantId)
    if (source !== undefined) q = q.where('source', '=', source)
    return q.orderBy('timestamp', 'desc').orderBy('seq', 'desc').limit(limit)
  }
  const merged = db
    .selectFrom(perLevel('error').as('e'))
    .selectAll()
    .unionAll(db.selectFrom(perLevel('critical').as('c')).selectAll())
  return db
    .selectFrom(merged.as('l'))
    .leftJoin('agents as a', 'a.id', 'l.agent_id')
    // A line's tenant as its own source has it (local, or the backend it was pulled from), else a local one of that id.
    .leftJoin('tenant_rows as t', (j) => j.onRef('t.id', '=', 'l.tenant_id').onRef('t.source', '=', 'l.source'))
    .leftJoin('tenants as lt', 'lt.id', 'l.tenant_id')
    .selectAll('l')
    .select((eb) => ['a.name as agent_name', eb.fn.coalesce('t.name', 'lt.name').as('tenant_name')])
    .orderBy('l.timestamp', 'desc')
    .orderBy('l.seq', 'desc')
    .limit(limit)
    .execute()
}
