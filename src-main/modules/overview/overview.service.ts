import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { type Principal, sourceScope } from '../../kit/access'
import * as repo from './overview.repo'

export const OVERVIEW_DAYS = 30
export const BUSIEST_AGENTS = 10
export const RECENT_ERRORS = 20

const DAY_MS = 86_400_000

/** The period: the last `days` UTC calendar days, today included. */
export function overviewPeriod(now: Date, days = OVERVIEW_DAYS) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const start = today - (days - 1) * DAY_MS
  const dayList = Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10))
  return { since: new Date(start).toISOString(), days: dayList }
}

export function createOverviewService(db: Kysely<Database>) {
  return {
    /** Counts, daily call volume and error rate, busiest agents and recent errors, in the principal's scope. */
    async get(principal: Principal, now = new Date()) {
      const scope = principal.tenantId
      const source = sourceScope(principal)
      // Agents, sessions and calls are Callscope's own rows: none for a pulled backend's scope.
      const local = source === undefined || source === ''
      const { since, days } = overviewPeriod(now)
      const [counts, calls, errorLogs, busiest, errors] = await Promise.all([
        repo.counts(db, scope, source),
        local ? repo.callsByDay(db, scope, since) : [],
        repo.errorLogsByDay(db, scope, since, source),
        local ? repo.busiestAgents(db, scope, since, BUSIEST_AGENTS) : [],
        repo.recentErrors(db, scope, RECENT_ERRORS, source),
      ])
      // The SQL returns only days that had rows; fill the 30 buckets (a fixed 30 steps, not a row loop).
      const callsOf = new Map(calls.map((r) => [r.day, r]))
      const errorsOf = new Map(errorLogs.map((r) => [r.day, Number(r.errors)]))
      const daily = days.map((day) => {
        const c = callsOf.get(day)
        const total = Number(c?.calls ?? 0)
        const failed = Number(c?.failed ?? 0)
        return { day, calls: total, failed_calls: failed, error_rate: total > 0 ? failed / total : 0, error_log_lines: errorsOf.get(day) ?? 0 }
      })
      return {
        period: { since, until: now.toISOString(), days: days.length },
        counts,
        daily,
        busiest_agents: busiest.map((b) => ({ ...b, sessions: Number(b.sessions) })),
        recent_errors: errors,
      }
    },
  }
}

export type OverviewService = ReturnType<typeof createOverviewService>
