import { type RawBuilder, sql } from 'kysely'

/**
 * The console's list search: the name contains the term (case-insensitively) or the id starts
 * with it. LIKE wildcards typed by the user are dropped, so they are never interpreted.
 */
// SQLite-only: SQLite's LIKE ignores ASCII case (so the id prefix match does too) and its lower() folds ASCII only.
export function nameOrIdMatches(nameColumn: string | RawBuilder<string | null>, idColumn: string, search: string): RawBuilder<boolean> {
  const term = search.trim().toLowerCase().replace(/[%_]/g, '')
  const name = typeof nameColumn === 'string' ? sql.ref(nameColumn) : nameColumn
  return sql<boolean>`(lower(${name}) like ${`%${term}%`} or ${sql.ref(idColumn)} like ${`${term}%`})`
}
