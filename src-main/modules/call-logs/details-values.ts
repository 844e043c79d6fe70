import { type RawBuilder, sql } from 'kysely'

/*
 * How a `details` key is read in SQL: its JSON type and its value. The keys call logs carry most
 * (INDEXED_DETAILS_KEYS) have an index of their own (migration 0019) on
 * `(json_type(details, '$.<key>'), json_extract(details, '$.<key>') COLLATE NOCASE, timestamp)`
 * over the lines that have the key. SQLite uses an index on an expression only for the very same
 * expression, so for those keys the path is written into the SQL as the same literal the index
 * holds (a bound parameter would not match it); other keys bind their path. Text compares under
 * NOCASE (ASCII letters in any case, as the query language promises and lower() folded before),
 * which is the index's collation, so equality, ranges and prefixes can seek in it.
 */

/** Keys with an index (migration 0019): what the demo data and real call logs carry most (docs/benchmarks.md). */
export const INDEXED_DETAILS_KEYS = ['provider', 'model', 'status', 'status_code', 'latency_ms'] as const

/** Whether a key path (`['provider']`, `['usage', 'tokens']`) has an index of its own. */
export const isIndexedDetailsPath = (path: readonly string[]): boolean => path.length === 1 && (INDEXED_DETAILS_KEYS as readonly string[]).includes(path[0]!)

/** `$."a"."b"`: segments are letters, digits, `_` and `-` (the parser checks), quoted for JSON path syntax. */
export const jsonPath = (path: readonly string[]): string => `$${path.map((p) => `."${p}"`).join('')}`

/** The path as SQL: the index's literal (`'$.provider'`) for an indexed key, else a bound parameter. */
const pathSql = (path: readonly string[]) => (isIndexedDetailsPath(path) ? sql.lit(`$.${path[0]}`) : sql`${jsonPath(path)}`)

/** A key's JSON type ('text', 'integer', 'real', 'true', 'false', 'null', 'object', 'array'); NULL when the line has no such key. */
// SQLite-only: JSON1's json_type (PostgreSQL: jsonb_typeof(details #> path), whose names differ: 'string', 'number', 'boolean').
export function detailsType(path: readonly string[]): RawBuilder<string | null> {
  return sql<string | null>`json_type(details, ${pathSql(path)})`
}

/**
 * A key's value under NOCASE: text, a number, 1/0 for true/false, NULL for JSON null or no key, an
 * object or array as its JSON text. Compare it only together with its type (detailsType).
 */
// SQLite-only: JSON1's json_extract and the NOCASE collation (PostgreSQL: details #>> path with lower(), or a jsonb expression index).
export function detailsValue(path: readonly string[]): RawBuilder<unknown> {
  return sql`json_extract(details, ${pathSql(path)}) collate nocase`
}

/** A key path as the query language writes it after `details.` (`usage.tokens`), split into its segments. */
export const keyPath = (key: string): string[] => key.split('.')

/**
 * The upper bound of the strings that start with `prefix` under NOCASE (its ASCII letters folded
 * to lower case, then compared as bytes, which is code point order): the prefix with its last code
 * point raised by one. Null when there is none (an empty prefix, or one ending in U+10FFFF).
 */
export function prefixUpperBound(prefix: string): string | null {
  const points = [...prefix.replace(/[A-Z]/g, (c) => c.toLowerCase())]
  const last = points.pop()
  if (last === undefined) return null
  let next = last.codePointAt(0)! + 1
  if (next === 0xd800) next = 0xe000
  if (next > 0x10ffff) return null
  return points.join('') + String.fromCodePoint(next)
}

/** A group's value as JSON text from its JSON type and value, so "200" and 200 stay two groups. */
export function detailsJsonText(type: string, value: unknown): string {
  switch (type) {
    case 'text':
      return JSON.stringify(String(value))
    case 'true':
    case 'false':
    case 'null':
      return type
    case 'integer':
    case 'real':
      return String(value)
    default:
      // An object or array: json_extract gives its JSON text.
      return String(value)
  }
}
