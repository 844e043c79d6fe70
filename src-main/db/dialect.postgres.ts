import { type Expression, type RawBuilder, sql } from 'kysely'
import { searchTerm, type StoreSql, type TimestampValue } from './store-sql-contract'

/*
 * The fragments of store-sql.ts as PostgreSQL spells them. Timestamps are timestamptz
 * (pg-migrations/0001-schema.ts); calendar parts are taken in UTC explicitly, whatever the
 * session's time zone. A bound ISO 8601 string is cast to timestamptz where nothing else gives
 * the parameter its type.
 */

const instant = (value: TimestampValue) => (typeof value === 'string' ? sql`${value}::timestamptz` : value)

export const postgresSql: StoreSql = {
  utcDay: (timestamp) => sql<string>`to_char(${timestamp} at time zone 'UTC', 'YYYY-MM-DD')`,
  // The hour as a timestamptz: utcDay and utcHourOfDay take it as they take any instant.
  utcDayHour: (timestamp) => sql<string>`date_trunc('hour', ${timestamp}, 'UTC')`,
  utcHourOfDay: (timestamp) => sql<number>`extract(hour from ${timestamp} at time zone 'UTC')::integer`,
  utcHourStart: (timestamp) => sql<string>`date_trunc('hour', ${instant(timestamp)}, 'UTC')`,
  utcNextHourStart: (timestamp) => sql<string>`(date_trunc('hour', ${instant(timestamp)}, 'UTC') + interval '1 hour')`,
  greatest: <T>(a: Expression<T>, b: Expression<T> | T) => sql<T>`greatest(${a}, ${b})`,
  least: <T>(a: Expression<T>, b: Expression<T> | T) => sql<T>`least(${a}, ${b})`,
  countTrue: (condition) => sql<number>`sum((${condition})::integer)`,
  // PostgreSQL's planner needs no hint here (checked with EXPLAIN): the column as it is.
  unindexed: <T>(column: Expression<T>) => sql<T>`${column}`,
  // ilike on both: case-insensitive as SQLite's LIKE is (PostgreSQL also folds non-ASCII case, so
  // a non-ASCII name can match where SQLite's would not).
  nameOrIdMatches(nameColumn: string | RawBuilder<string | null>, idColumn: string, search: string): RawBuilder<boolean> {
    const term = searchTerm(search)
    const name = typeof nameColumn === 'string' ? sql.ref(nameColumn) : nameColumn
    return sql<boolean>`(${name} ilike ${`%${term}%`} or ${sql.ref(idColumn)} ilike ${`${term}%`})`
  },
}
