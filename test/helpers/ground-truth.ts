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
