import { type Kysely, PostgresAdapter } from 'kysely'

/** The two stores the service runs on (issue 20): embedded SQLite, or a PostgreSQL server. */
export type StoreKind = 'sqlite' | 'postgres'

/** Whether a `--db` value names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location)
}

/** The URL without its password, for messages, logs and `db info`. */
export function displayLocation(location: string): string {
  if (!isPostgresUrl(location)) return location
  try {
    const url = new URL(location)
    if (url.password) url.password = '***'
    return url.toString()
  } catch {
    return 'postgres://…'
  }
}

/** Which store a kysely instance (or a transaction of it) runs on, from its dialect's adapter. */
export function storeKind(db: Kysely<any>): StoreKind {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/**
 * The implementation of a dialect-specific interface for the store `db` runs on. Each such
 * interface (db/store-sql.ts, and a module's own `*.sql.ts`) has one implementation per store;
 * repos call through it rather than asking which store they are on.
 */
export function forStore<T>(db: Kysely<any>, implementations: Record<StoreKind, T>): T {
  return implementations[storeKind(db)]
}
