import type { Expression, RawBuilder } from 'kysely'

/** A timestamp value: a column (sql.ref) or expression, or a bound ISO 8601 string. */
export type TimestampValue = Expression<string> | string

/**
 * Small SQL fragments more than one module needs, whose spelling differs between the stores
 * (docs/architecture.md, "Store seams"). Queries stay in kysely's builder and call these where a
 * store needs words of its own; `storeSql(db)` picks the implementation for the store `db` runs
 * on (store-sql.ts): dialect.sqlite.ts (timestamps as ISO 8601 text) or dialect.postgres.ts (timestamptz).
 * A module's own fragments follow the same pattern in its `*.sql.ts`.
 */
export interface StoreSql {
  /** The UTC day ('YYYY-MM-DD') of a timestamp. */
  utcDay(timestamp: Expression<string>): RawBuilder<string>
  /** The UTC clock hour of a timestamp, in a form utcDay and utcHourOfDay read back (grouping key). */
  utcDayHour(timestamp: Expression<string>): RawBuilder<string>
  /** The UTC hour of day (0 to 23) of a timestamp (or of a utcDayHour value), as an integer. */
  utcHourOfDay(timestamp: Expression<string>): RawBuilder<number>
  /** The start of the timestamp's UTC clock hour, as a timestamp of the store. */
  utcHourStart(timestamp: TimestampValue): RawBuilder<string>
  /** The start of the UTC clock hour after the timestamp's. */
  utcNextHourStart(timestamp: TimestampValue): RawBuilder<string>
  /** The larger of two values. */
  greatest<T>(a: Expression<T>, b: Expression<T> | T): RawBuilder<T>
  /** The smaller of two values. */
  least<T>(a: Expression<T>, b: Expression<T> | T): RawBuilder<T>
  /** How many rows of the group meet a condition (null for no rows, as sum is). */
  countTrue(condition: Expression<unknown>): RawBuilder<number>
  /** The column, kept out of index use for this condition where the planner needs telling. */
  unindexed<T>(column: Expression<T>): RawBuilder<T>
  /**
   * The console's list search: the name contains the term (case-insensitively) or the id starts
   * with it. LIKE wildcards typed by the user are dropped, so they are never interpreted.
   */
  nameOrIdMatches(nameColumn: string | RawBuilder<string | null>, idColumn: string, search: string): RawBuilder<boolean>
}

/** The search term as both stores match it: trimmed, lower-cased, LIKE wildcards dropped. */
export const searchTerm = (search: string): string => search.trim().toLowerCase().replace(/[%_]/g, '')
