import type BetterSqlite3 from 'better-sqlite3'

/*
 * The full-text indexes over call_logs.message: call_logs_fts (words, unicode61; migration 0001)
 * and call_logs_trigram (substrings, trigram; 0014). Both are external-content FTS5 tables keyed on
 * seq and kept in step by triggers named `<index>_insert`, `_delete`, `_update`. Every path that
 * writes messages around the triggers (bulk loads, the seed, a redacted pack) goes through these,
 * so no index is forgotten: a stale trigram index would still find words a pack had removed.
 */
// SQLite-only: FTS5 tables, their special INSERT commands and triggers read from sqlite_master.

export const MESSAGE_INDEXES = ['call_logs_fts', 'call_logs_trigram'] as const

/** The message indexes this store has (an older schema may lack the newer ones). */
export function messageIndexes(sqlite: BetterSqlite3.Database): string[] {
  const present = new Set(
    sqlite.prepare<[], string>("select name from sqlite_master where type = 'table' and name in ('call_logs_fts', 'call_logs_trigram')").pluck().all(),
  )
  return MESSAGE_INDEXES.filter((name) => present.has(name))
}

/** The triggers of call_logs that feed a message index: name and definition. */
export function messageIndexTriggers(sqlite: BetterSqlite3.Database, which: 'insert' | 'all' = 'all'): Array<{ name: string; sql: string }> {
  const names = messageIndexes(sqlite).flatMap((index) => (which === 'insert' ? [`${index}_insert`] : [`${index}_insert`, `${index}_delete`, `${index}_update`]))
  const lookup = sqlite.prepare<[string], { name: string; sql: string }>("select name, sql from sqlite_master where type = 'trigger' and name = ?")
  return names.map((name) => lookup.get(name)).filter((t): t is { name: string; sql: string } => t !== undefined)
}

/** Each message index rebuilt from the messages as they are now. */
export function rebuildMessageIndexes(sqlite: BetterSqlite3.Database): void {
  for (const index of messageIndexes(sqlite)) sqlite.exec(`insert into "${index}"("${index}") values ('rebuild')`)
}

/** Each message index emptied (the rows of call_logs are being deleted with the triggers off). */
export function clearMessageIndexes(sqlite: BetterSqlite3.Database): void {
  for (const index of messageIndexes(sqlite)) sqlite.exec(`insert into "${index}"("${index}") values ('delete-all')`)
}

/** What indexes the messages of the call logs after a seq, in every message index: one INSERT … SELECT each. */
export function prepareIndexMessagesAfter(sqlite: BetterSqlite3.Database): (seq: number) => void {
  const statements = messageIndexes(sqlite).map((index) =>
    sqlite.prepare<[number]>(`insert into "${index}"(rowid, message) select seq, message from call_logs where seq > ?`),
  )
  return (seq) => {
    for (const statement of statements) statement.run(seq)
  }
}
