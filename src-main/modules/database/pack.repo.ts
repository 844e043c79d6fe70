import type BetterSqlite3 from 'better-sqlite3'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../../db/schema'
import { messageIndexTriggers, rebuildMessageIndexes } from '../../db/message-indexes'

/*
 * Queries on a snapshot's working copy (never on the live store): what leaves the secrets out and
 * what rewrites personal data. Each piece marked "SQLite-only" works on the raw handle or SQLite's
 * own objects; a PostgreSQL store would make its pack with pg_dump and these steps on the restore.
 */

/** The tables whose rows are all secrets: stored token hashes, sealed provider keys, sealed webhook signing secrets. */
export async function deleteSecretRows(db: Kysely<Database>): Promise<{ tokens: number; credentials: number; webhookSecrets: number }> {
  const tokens = await db.deleteFrom('api_tokens').executeTakeFirst()
  const credentials = await db.deleteFrom('provider_credentials').executeTakeFirst()
  const webhookSecrets = await db.deleteFrom('webhook_secrets').executeTakeFirst()
  return { tokens: Number(tokens.numDeletedRows), credentials: Number(credentials.numDeletedRows), webhookSecrets: Number(webhookSecrets.numDeletedRows) }
}

/** Deletes the settings whose key names a secret; returns how many. */
export async function deleteSettings(db: Kysely<Database>, isSecret: (key: string) => boolean): Promise<number> {
  const keys = (await db.selectFrom('settings').select('key').execute()).map((r) => r.key).filter(isSecret)
  if (keys.length === 0) return 0
  await db.deleteFrom('settings').where('key', 'in', keys).execute()
  return keys.length
}

/** The tables keyed by a pull's source, and their columns holding what the remote answered. */
const PULLED_TABLES = [
  { table: 'pulled_documents', text: ['body'] },
  { table: 'pulled_agents', text: [] },
  { table: 'pulled_sessions', text: ['last_message_preview'] },
  { table: 'pulled_squad_analytics', text: ['body', 'default_body'] },
  { table: 'pulled_sip_trunks', text: ['body'] },
  { table: 'pulled_llm_providers', text: ['body'] },
] as const satisfies ReadonlyArray<{ table: keyof Database; text: readonly string[] }>

/** Every pulled backend's address the pack records (pulls, their cursors and what they fetched). */
export async function pullSources(db: Kysely<Database>): Promise<string[]> {
  let query = db.selectFrom('pulls').select('source').union(db.selectFrom('pull_cursors').select('source'))
  for (const { table } of PULLED_TABLES) query = query.union(db.selectFrom(table).select('source'))
  return (await query.execute()).map((r) => r.source)
}

/**
 * Renames a pull source everywhere it is a key (pulls, cursors, pulled rows), and replaces each
 * `mentions` text (the address, its host) in what a pull wrote about itself: failures, problems,
 * cursor values and what it fetched. `replace()` keeps JSON valid: the stand-ins have no quotes or
 * backslashes.
 */
export async function renameSource(db: Kysely<Database>, from: string, to: string, mentions: Array<[string, string]>): Promise<void> {
  await db.updateTable('pulls').set({ source: to }).where('source', '=', from).execute()
  await db.updateTable('pull_cursors').set({ source: to }).where('source', '=', from).execute()
  for (const { table } of PULLED_TABLES) await db.updateTable(table).set({ source: to }).where('source', '=', from).execute()
  for (const [text, standIn] of mentions) {
    const swap = (column: string) => sql<string>`replace(${sql.ref(column)}, ${text}, ${standIn})`
    await db.updateTable('pulls').set({ failure: swap('failure'), errors: swap('errors') }).execute()
    await db.updateTable('pull_cursors').set({ value: swap('value') }).execute()
    for (const { table, text: columns } of PULLED_TABLES) {
      for (const column of columns) await db.updateTable(table).set({ [column]: swap(column) }).execute()
    }
  }
}

/** The names of agents and tenants: configuration, not people, though they appear in conversations. */
export async function agentAndTenantNames(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('agents').select('name').union(db.selectFrom('tenant_rows').select('name')).execute()
  return rows.map((r) => r.name)
}

export type RowValues = Record<string, string | null>

const PAGE = 2_000

/**
 * Visits a table's rows a page at a time (rowid order) and writes back the columns `visit` returns
 * changed. Paging by rowid keeps memory flat on a million call logs, and better-sqlite3 cannot
 * write while a statement is still iterating. Run inside one transaction.
 */
// SQLite-only: the implicit rowid of every table here (none is WITHOUT ROWID), statements prepared on the raw handle.
export function rewriteRows(
  sqlite: BetterSqlite3.Database,
  table: keyof Database,
  columns: readonly string[],
  visit: (row: RowValues) => RowValues | null,
): number {
  const list = columns.map((c) => `"${c}"`).join(', ')
  const page = sqlite.prepare<[number, number], RowValues & { rowid_: number }>(
    `select rowid as rowid_, ${list} from "${table}" where rowid > ? order by rowid limit ?`,
  )
  const updates = new Map<string, BetterSqlite3.Statement>()
  const updateOf = (changed: string[]) => {
    const key = changed.join(',')
    let statement = updates.get(key)
    if (!statement) {
      statement = sqlite.prepare(`update "${table}" set ${changed.map((c) => `"${c}" = ?`).join(', ')} where rowid = ?`)
      updates.set(key, statement)
    }
    return statement
  }
  let changedRows = 0
  for (let after = 0; ; ) {
    const rows = page.all(after, PAGE)
    if (rows.length === 0) return changedRows
    for (const { rowid_, ...row } of rows) {
      const next = visit(row)
      const changed = next ? columns.filter((c) => next[c] !== row[c]) : []
      if (changed.length > 0) {
        updateOf(changed).run(...changed.map((c) => next![c]), rowid_)
        changedRows++
      }
    }
    after = rows.at(-1)!.rowid_
  }
}

/** Visits a table's rows a page at a time, reading only. */
export function scanRows(sqlite: BetterSqlite3.Database, table: keyof Database, columns: readonly string[], visit: (row: RowValues) => void): void {
  rewriteRows(sqlite, table, columns, (row) => {
    visit(row)
    return null
  })
}

/**
 * Runs `rewrite` with the full-text triggers of call_logs dropped, then restores them from their
 * stored definitions and rebuilds the index from the rewritten messages: the old index would still
 * hold (and match) the original words.
 */
// SQLite-only: FTS5 triggers recreated from sqlite_master, and FTS5's 'rebuild' command.
export function withSearchIndexRebuilt<T>(sqlite: BetterSqlite3.Database, rewrite: () => T): T {
  // Words and substrings alike (db/message-indexes.ts): a stale trigram index would still match what was removed.
  const triggers = messageIndexTriggers(sqlite)
  for (const t of triggers) sqlite.exec(`drop trigger "${t.name}"`)
  const result = rewrite()
  for (const t of triggers) sqlite.exec(t.sql)
  rebuildMessageIndexes(sqlite)
  return result
}

/**
 * Recomputes the planner's statistics when the store keeps them: sqlite_stat4 holds sample rows of
 * every index (token hashes, pull addresses), so statistics of the original would carry what the
 * pack has just removed.
 */
// SQLite-only: ANALYZE and the sqlite_stat1/sqlite_stat4 tables.
export function refreshStatistics(sqlite: BetterSqlite3.Database): void {
  const stats = sqlite.prepare<[], string>("select name from sqlite_master where type = 'table' and name like 'sqlite_stat%'").pluck().all()
  if (stats.length === 0) return
  for (const table of stats) sqlite.exec(`delete from "${table}"`)
  sqlite.exec('analyze')
}
