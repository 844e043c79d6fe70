import pg from 'pg'

/*
 * How the PostgreSQL store's values reach JavaScript: as the SQLite store's do, so repos, services
 * and responses see one shape whatever the store (db/schema.ts describes it). Set per pool (the
 * `types` option), never globally, so another pg user in the process is unaffected.
 */

/** PostgreSQL type OIDs (pg_type.oid, fixed for built-in types). */
const OID = { bool: 16, int8: 20, json: 114, numeric: 1700, timestamptz: 1184, jsonb: 3802 } as const

const PG_TIMESTAMPTZ = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/

/**
 * timestamptz text ('2026-11-22 10:00:00.12+00', DateStyle ISO) as the store's instants:
 * ISO 8601 UTC with milliseconds ('2026-11-22T10:00:00.120Z'), whatever the session's time zone.
 * Values the pattern does not describe (infinity, years past 9999) stay as PostgreSQL wrote them.
 */
export function isoFromTimestamptz(text: string): string {
  const m = PG_TIMESTAMPTZ.exec(text)
  if (!m) return text
  const date = new Date(`${m[1]}T${m[2]}${m[3]}:${m[4] ?? '00'}`)
  return Number.isNaN(date.getTime()) ? text : date.toISOString()
}

const parsers: Record<number, (text: string) => unknown> = {
  // 0/1, as SQLite's flags (the schema's Flag type); a 0/1 written back is valid boolean input.
  [OID.bool]: (text) => (text === 't' ? 1 : 0),
  // Counts and sums: numbers, as SQLite's integers and reals are (exact below 2^53, which counts are).
  [OID.int8]: (text) => Number(text),
  [OID.numeric]: (text) => Number(text),
  // JSON columns stay text, as SQLite's are: services parse what they need, and the API returns
  // stored JSON as it was written.
  [OID.json]: (text) => text,
  [OID.jsonb]: (text) => text,
  [OID.timestamptz]: isoFromTimestamptz,
}

/** The pool's type parsers: ours for the types above, pg's own for the rest. */
export const storeTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    const own = parsers[oid]
    if (own && (format === undefined || format === 'text')) return own
    return pg.types.getTypeParser(oid, format as 'text')
  }) as pg.CustomTypesConfig['getTypeParser'],
}
