/*
 * `details` keys and values, store-neutral. The keys call logs carry most (INDEXED_DETAILS_KEYS)
 * have an index of their own over the lines that have the key: on SQLite (migration 0019)
 * `(json_type(details, '$.<key>'), json_extract(details, '$.<key>') COLLATE NOCASE, timestamp)`, on
 * PostgreSQL (pg 0002) `(json_typeof(details -> '<key>'), lower((details ->> '<key>') collate "C"),
 * timestamp)`. A store uses an index on an expression only for the very same expression, so for
 * those keys the SQL (call-logs.sql.sqlite.ts, call-logs.sql.postgres.ts) writes the path as the
 * index does; other keys bind their path. Text compares with its ASCII letters folded (NOCASE,
 * lower() under "C"), as the query language promises, so equality, ranges and prefixes can seek.
 */

/** Keys with an index (migration 0019): what the demo data and real call logs carry most (docs/benchmarks.md). */
export const INDEXED_DETAILS_KEYS = ['provider', 'model', 'status', 'status_code', 'latency_ms'] as const

/** Whether a key path (`['provider']`, `['usage', 'tokens']`) has an index of its own. */
export const isIndexedDetailsPath = (path: readonly string[]): boolean => path.length === 1 && (INDEXED_DETAILS_KEYS as readonly string[]).includes(path[0]!)

/** `$."a"."b"`: segments are letters, digits, `_` and `-` (the parser checks), quoted for JSON path syntax. */
export const jsonPath = (path: readonly string[]): string => `$${path.map((p) => `."${p}"`).join('')}`

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
