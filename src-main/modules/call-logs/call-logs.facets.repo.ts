import { type Kysely, sql } from 'kysely'
import type { DetailsValue } from '../../../src-shared/schemas/call-log-facets'
import type { Database } from '../../db/schema'
import { pageQuery, type ResolvedCallLogFilter } from './call-logs.search.repo'
import { callLogsSql } from './call-logs.sql'
import { keyPath } from './details-values'

/*
 * What the explorer's facets need beyond counts by an indexed column (call-logs.search.repo.ts):
 * the names of tenants and agents, and the keys and values of `details`, which only some keys have an index for (0019), so
 * they are read from the newest matching lines only (pageQuery: the time index, newest first,
 * stopping at `lines`).
 */

export interface Named {
  name: string | null
  /** Another tenant (agent) has the same name, any case: a filter by this name would match both. */
  nameShared: boolean
}

/** Names of tenants (local and pulled: tenant_rows) or agents by id, with whether each name is shared (the query language matches names any case). */
export async function namesOf(db: Kysely<Database>, table: 'tenant_rows' | 'agents', ids: string[]): Promise<Map<string, Named>> {
  if (ids.length === 0) return new Map()
  // Both tables have the id and name read here; the cast picks one of them for the types.
  const rows = await db
    .selectFrom(`${table} as t` as 'tenant_rows as t')
    .where('t.id', 'in', ids)
    .select((eb) => [
      't.id as id',
      't.name as name',
      eb
        .selectFrom(`${table} as other` as 'tenant_rows as other')
        .whereRef('other.id', '<>', 't.id')
        .where((o) => o(o.fn('lower', ['other.name']), '=', o.fn('lower', ['t.name'])))
        .select((o) => o.fn.countAll<number>().as('n'))
        .as('shared'),
    ])
    .execute()
  return new Map(rows.map((r) => [r.id, { name: r.name ?? null, nameShared: Number(r.shared) > 0 }]))
}

/** The newest `lines` matching lines' details: the sample details facets read. */
export const recentDetails = (db: Kysely<Database>, f: ResolvedCallLogFilter, lines: number) => pageQuery(db, f, null, lines).select('details')

/**
 * Top-level keys with a plain value (not an object or array) in the newest matching lines, by how
 * many lines have them. Keys the query language cannot name are left to the caller to drop.
 */
export async function detailsKeys(db: Kysely<Database>, f: ResolvedCallLogFilter, lines: number, top: number) {
  const recent = recentDetails(db, f, lines)
  const keys = await callLogsSql(db).detailsKeys(db, recent, top)
  const read = await sql<{ n: number }>`select count(*) as n from (${recent}) as recent`.execute(db)
  return { keys, linesRead: Number(read.rows[0]?.n ?? 0) }
}

export const PLAIN_TYPES = new Set(['text', 'integer', 'real', 'true', 'false', 'null'])

/** JSON's value from json_extract and json_type: true/false come back from SQLite as 1/0. */
export function toValue(value: unknown, type: string): DetailsValue {
  if (type === 'true') return true
  if (type === 'false') return false
  if (type === 'null') return null
  if (type === 'integer' || type === 'real') return Number(value)
  return String(value)
}

/**
 * The key's plain values in the newest matching lines, most first; with the lines read and how many
 * had the key. One read of the sample, grouped by (value, JSON type), the missing key and objects
 * included: the totals are summed from the same groups (a second read doubled the cost).
 */
export async function detailsValues(db: Kysely<Database>, f: ResolvedCallLogFilter, key: string, lines: number, top: number) {
  const groups = await callLogsSql(db).detailsValueGroups(db, recentDetails(db, f, lines), keyPath(key))
  let linesRead = 0
  let linesWithKey = 0
  const values: Array<{ value: DetailsValue; count: number }> = []
  for (const g of groups) {
    linesRead += g.count
    if (g.type === null) continue
    linesWithKey += g.count
    if (PLAIN_TYPES.has(g.type)) values.push({ value: toValue(g.value, g.type), count: g.count })
  }
  return { values: values.slice(0, top), linesRead, linesWithKey }
}
