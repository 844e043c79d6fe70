import type BetterSqlite3 from 'better-sqlite3'

// SQLite-only: connection pragmas (journal mode, sync, foreign keys, busy timeout, page cache, temp store).
export function applyPragmas(sqlite: BetterSqlite3.Database, readonly: boolean): void {
  // WAL lets the console read while an import writes; NORMAL sync is durable across app crashes
  // in WAL mode and only risks the last transaction on power loss.
  if (!readonly) sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('cache_size = -65536') // 64 MiB page cache
  sqlite.pragma('temp_store = MEMORY')
}
