import { type RawBuilder, sql } from 'kysely'

/** The squad analytics fragments whose spelling differs between the stores (db/store-sql.ts's pattern). */
export interface SquadsSql {
  /**
   * The sum of the sessions' handle times in ms, over `conversations as c`. Ongoing sessions
   * (ended_at null) give null, which sum skips.
   */
  handleMsSum(): RawBuilder<number | null>
  /** Resolved sessions among `conversations as c` (the flag summed; null for no rows). */
  resolvedSum(): RawBuilder<number | null>
  /** `p.body`'s routing_strategy (text), for pulled analytics `p`. */
  pulledRoutingStrategy(): RawBuilder<string | null>
  /** How many members `p.body`'s member_utilization lists: null without one, 0 when it is not an array. */
  pulledMemberCount(): RawBuilder<number | null>
}

export const sqliteSquadsSql: SquadsSql = {
  // SQLite-only: julianday() arithmetic, spelled exactly as the expression of the covering index
  // conversations_squad_analytics (migration 0002), so SQLite reads the value stored in the index
  // instead of parsing two timestamps per session (a test checks the query has no julianday call).
  handleMsSum: () => sql<number | null>`sum((julianday(c.ended_at) - julianday(c.created_at)) * 86400000.0)`,
  // SQLite-only: a flag is 0 or 1, so its sum counts the ones.
  resolvedSum: () => sql<number | null>`sum(c.resolved)`,
  // SQLite-only: json_extract / json_array_length of JSON1 on the stored answer.
  pulledRoutingStrategy: () => sql<string | null>`json_extract(p.body, '$.routing_strategy')`,
  pulledMemberCount: () => sql<number | null>`json_array_length(p.body, '$.member_utilization')`,
}

export const postgresSquadsSql: SquadsSql = {
  // Exact: the interval between two timestamptz, in ms (numeric; SQLite's julianday doubles differ
  // below a microsecond, which the service's rounding to whole ms does not show).
  handleMsSum: () => sql<number | null>`sum(extract(epoch from c.ended_at - c.created_at) * 1000)`,
  resolvedSum: () => sql<number | null>`sum(c.resolved::integer)`,
  pulledRoutingStrategy: () => sql<string | null>`(p.body ->> 'routing_strategy')`,
  // json_array_length fails on a non-array, where SQLite's answers 0.
  pulledMemberCount: () => sql<number | null>`(case
    when p.body -> 'member_utilization' is null then null
    when json_typeof(p.body -> 'member_utilization') = 'array' then json_array_length(p.body -> 'member_utilization')
    else 0 end)`,
}
