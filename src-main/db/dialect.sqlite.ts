import { type Expression, type RawBuilder, sql } from 'kysely'
import { searchTerm, type StoreSql, type TimestampValue } from './store-sql-contract'

/*
 * The fragments of store-sql.ts as SQLite spells them. Each is marked "SQLite-only"
 * (docs/architecture.md, "Store seams"); dialect.postgres.ts has the PostgreSQL spelling.
 *
 * Timestamps are ISO 8601 UTC text with milliseconds ('2026-11-22T10:00:00.000Z', see
 * docs/architecture.md, "Store"): calendar parts are slices of the text, and time arithmetic is
 * strftime's.
 */
export const sqliteSql: StoreSql = {
  // SQLite-only: the UTC day ('YYYY-MM-DD') of ISO 8601 text, sliced from the text.
  utcDay(timestamp: Expression<string>): RawBuilder<string> {
    return sql<string>`substr(${timestamp}, 1, 10)`
  },

  // SQLite-only: the UTC clock hour ('YYYY-MM-DDTHH') of ISO 8601 text, sliced from the text; utcDay and utcHourOfDay read it back.
  utcDayHour(timestamp: Expression<string>): RawBuilder<string> {
    return sql<string>`substr(${timestamp}, 1, 13)`
  },

  // SQLite-only: the UTC hour of day (0 to 23) of ISO 8601 text (or of a utcDayHour value), as an integer.
  utcHourOfDay(timestamp: Expression<string>): RawBuilder<number> {
    return sql<number>`cast(substr(${timestamp}, 12, 2) as integer)`
  },

  // SQLite-only: the start of the timestamp's UTC clock hour, in the store's text format (strftime).
  utcHourStart(timestamp: TimestampValue): RawBuilder<string> {
    return sql<string>`strftime('%Y-%m-%dT%H:00:00.000Z', ${timestamp})`
  },

  // SQLite-only: the start of the UTC clock hour after the timestamp's, in the store's text format (strftime's '+1 hour').
  utcNextHourStart(timestamp: TimestampValue): RawBuilder<string> {
    return sql<string>`strftime('%Y-%m-%dT%H:00:00.000Z', ${timestamp}, '+1 hour')`
  },

  // SQLite-only: the larger of two values (SQLite's two-argument scalar max(); PostgreSQL: greatest()).
  greatest<T>(a: Expression<T>, b: Expression<T> | T): RawBuilder<T> {
    return sql<T>`max(${a}, ${b})`
  },

  // SQLite-only: the smaller of two values (SQLite's two-argument scalar min(); PostgreSQL: least()).
  least<T>(a: Expression<T>, b: Expression<T> | T): RawBuilder<T> {
    return sql<T>`min(${a}, ${b})`
  },

  // SQLite-only: how many rows of the group meet a condition, by summing the condition (a comparison is 0 or 1 in SQLite; null for no rows, as sum is).
  countTrue(condition: Expression<unknown>): RawBuilder<number> {
    return sql<number>`sum(${condition})`
  },

  // SQLite-only: a planner hint. Unary + makes a column an expression, so SQLite will not use an index on it for this condition.
  unindexed<T>(column: Expression<T>): RawBuilder<T> {
    return sql<T>`+${column}`
  },

  // SQLite-only: SQLite's LIKE ignores ASCII case (so the id prefix match does too) and its lower() folds ASCII only.
  nameOrIdMatches(nameColumn: string | RawBuilder<string | null>, idColumn: string, search: string): RawBuilder<boolean> {
    const term = searchTerm(search)
    const name = typeof nameColumn === 'string' ? sql.ref(nameColumn) : nameColumn
    return sql<boolean>`(lower(${name}) like ${`%${term}%`} or ${sql.ref(idColumn)} like ${`${term}%`})`
  },
}
