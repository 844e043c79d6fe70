import BetterSqlite3 from 'better-sqlite3'

/**
 * A connection of the test's own to a store file that a service has open: what the service wrote
 * (committed) is what this reads, straight from SQLite. The service itself holds no connection on
 * the test's thread (its writer and readers are threads of their own, db/connection.ts openStore).
 */
export function groundTruth(path: string): BetterSqlite3.Database {
  const sqlite = new BetterSqlite3(path, { fileMustExist: true })
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  return sqlite
}

/**
 * One value per row of a query on a store file, read on a read-only connection opened for the
 * query alone: the ground truth an e2e test checks a page against while `serve` has the file open.
 */
export function pluckAll<T>(path: string, query: string, ...params: unknown[]): T[] {
  const db = new BetterSqlite3(path, { readonly: true, fileMustExist: true })
  try {
    return db.prepare(query).pluck().all(...params) as T[]
  } finally {
    db.close()
  }
}
