import { type Expression, type RawBuilder, sql } from 'kysely'

/*
 * JSON text written by PostgreSQL exactly as the SQLite store writes it (json_object: no spaces,
 * keys in the order given) and as JSON.stringify does, so an answer is the same bytes on both
 * stores. PostgreSQL's json_build_object writes `{"a" : 1}`, hence these: each value is the JSON
 * text of one field (to_json of text escapes as JSON.stringify does), joined with constant keys.
 */

/** A text (or any scalar cast to text) as a JSON string; `null` for SQL null. */
export const jsonString = (value: Expression<unknown>): RawBuilder<string> => sql<string>`coalesce(to_json((${value})::text)::text, 'null')`

/** A number as JSON; `null` for SQL null. */
export const jsonNumber = (value: Expression<unknown>): RawBuilder<string> => sql<string>`coalesce((${value})::text, 'null')`

/** A timestamptz as the store's instant text, ISO 8601 UTC with milliseconds, as a JSON string. */
export const jsonInstant = (value: Expression<unknown>): RawBuilder<string> =>
  sql<string>`coalesce(to_json(to_char((${value}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text, 'null')`

/** A json column's text as stored (the store writes it minified); `null` for SQL null. */
export const jsonRaw = (value: Expression<unknown>): RawBuilder<string> => sql<string>`coalesce((${value})::text, 'null')`

/** `{"key":value,…}` from JSON texts, keys in the order given. */
export function jsonObject(fields: ReadonlyArray<readonly [string, RawBuilder<string>]>): RawBuilder<string> {
  const parts = fields.map(([key, value], i) => sql`${sql.lit(`${i === 0 ? '{' : ','}${JSON.stringify(key)}:`)} || ${value}`)
  return sql<string>`(${sql.join(parts, sql` || `)} || '}')`
}
