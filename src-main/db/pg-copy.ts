import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { type Kysely, sql } from 'kysely'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { copyField } from './pg-copy-text'
import type { Database } from './schema'

export { copyField }

/*
 * A SQLite store's rows into an empty PostgreSQL store, through COPY (pg-copy-streams): how a
 * PostgreSQL store gets the demo data (seeded into a scratch SQLite store, then copied), and how
 * the tests put the very same rows in both stores for the parity test. One transaction: the copy
 * lands whole or not at all.
 */

/** Tables in the order their foreign keys need (parents first); the view tenant_rows is not copied. */
export const COPIED_TABLES = [
  'tenants', 'agents', 'squads', 'squad_members', 'conversations', 'messages', 'sip_inbound_trunks', 'calls', 'transfers',
  'call_logs', 'provider_credentials', 'settings', 'imports', 'pulls', 'pull_syncs', 'pull_cursors', 'pulled_documents',
  'pulled_agents', 'pulled_sessions', 'pulled_squad_analytics', 'pulled_sip_trunks', 'pulled_llm_providers',
  'pulled_tenants', 'api_tokens', 'saved_views', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts', 'webhook_inbox',
] as const satisfies readonly (keyof Database)[]

/**
 * Tables whose secondary indexes are dropped before the copy and built again after it: on an empty
 * store, one index build over the rows is several times faster than updating every index row by row
 * (the 10-million-line team seed's two GIN indexes above all). Indexes that back a constraint stay.
 */
const REBUILT_AFTER_COPY: readonly (typeof COPIED_TABLES)[number][] = ['call_logs', 'messages']

/** Memory each index build may use (the server's default, 64 MB, makes a GIN build of millions of rows spill to disk). */
const INDEX_BUILD_MEMORY = '512MB'

/** Rows read from SQLite at a time (by rowid), and so written per COPY chunk. */
const PAGE_ROWS = 5_000

/**
 * Columns read through a SQLite function rather than as stored: a record's details minified by
 * json(), as the SQLite store's own JSON answers embed them, so the PostgreSQL store's `json`
 * column holds the very bytes SQLite answers with.
 */
const READ_AS: Partial<Record<(typeof COPIED_TABLES)[number], Record<string, string>>> = {
  call_logs: { details: 'json(details)' },
}

type Row = Record<string, unknown>

/** The table's rows, a page at a time, by rowid (SELECTs: on the source's readers when it has them). */
async function* pages(source: Kysely<Database>, table: string): AsyncGenerator<Row[]> {
  const overrides = READ_AS[table as keyof typeof READ_AS] ?? {}
  const extra = Object.entries(overrides).map(([column, expression]) => sql`, ${sql.raw(expression)} as ${sql.ref(`__${column}`)}`)
  let after = Number.MIN_SAFE_INTEGER
  for (;;) {
    const { rows } = await sql<Row>`select rowid as __rowid, *${sql.join(extra, sql``)} from ${sql.table(table)} where rowid > ${after} order by rowid limit ${PAGE_ROWS}`.execute(source)
    if (rows.length === 0) return
    for (const row of rows) {
      for (const column of Object.keys(overrides)) row[column] = row[`__${column}`]
    }
    yield rows
    after = rows.at(-1)!.__rowid as number
  }
}

const isCopiedColumn = (column: string) => !column.startsWith('__')

/** Copies one table; returns its row count. */
async function copyTable(source: Kysely<Database>, client: pg.PoolClient, table: string): Promise<number> {
  let columns: string[] | null = null
  let count = 0
  const lines = async function* () {
    for await (const rows of pages(source, table)) {
      columns ??= Object.keys(rows[0]!).filter(isCopiedColumn)
      let chunk = ''
      for (const row of rows) chunk += `${columns.map((c) => copyField(row[c])).join('\t')}\n`
      count += rows.length
      yield chunk
    }
  }
  // The columns are known from the first page; COPY starts once it is read.
  const iterator = lines()
  const first = await iterator.next()
  if (first.done) return 0
  const list = columns!.map((c) => `"${c}"`).join(', ')
  const stream = client.query(copyFrom(`copy ${table} (${list}) from stdin`))
  await pipeline(Readable.from((async function* () {
    yield first.value
    yield* iterator
  })()), stream)
  return count
}

export interface CopyOptions {
  /** Run first in the copy's transaction, to empty what the copy refills (`seed --reset`): the copy and it land together or not at all. */
  emptyFirst?: (client: pg.PoolClient) => Promise<void>
}

/**
 * Copies every table of `source` (a SQLite store) into `target` (an empty PostgreSQL store: its
 * schema migrated, no rows), creating the call log partitions the rows need. Returns rows per table.
 */
export async function copySqliteToPostgres(source: Kysely<Database>, target: pg.Pool, options: CopyOptions = {}): Promise<Record<string, number>> {
  const client = await target.connect()
  const counts: Record<string, number> = {}
  try {
    await client.query('begin')
    await options.emptyFirst?.(client)
    const { rows } = await client.query('select (select count(*) from tenants) + (select count(*) from call_logs) as n')
    if (Number(rows[0].n) > 0) throw new Error('the PostgreSQL store already holds data: copy into an empty store')
    const range = await sql<{ first: string | null; last: string | null }>`select min(timestamp) as first, max(timestamp) as last from call_logs`.execute(source)
    const { first, last } = range.rows[0] ?? { first: null, last: null }
    if (first && last) await client.query('select callscope_call_log_partitions($1, $2)', [first, last])
    const rebuilt: string[] = []
    for (const table of REBUILT_AFTER_COPY) rebuilt.push(...(await dropSecondaryIndexes(client, table)))
    // The day counts' trigger would keep every copied line in its transition table: the counts are
    // made once, from the copied lines, instead (pg-migrations/0004).
    await client.query('alter table call_logs disable trigger call_logs_counted')
    for (const table of COPIED_TABLES) counts[table] = await copyTable(source, client, table)
    await client.query('alter table call_logs enable trigger call_logs_counted')
    await client.query('select callscope_count_call_logs()')
    await client.query(`set local maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`)
    for (const definition of rebuilt) await client.query(definition)
    // Deduplication of later writes, and the sequence past the copied seqs.
    await client.query('insert into call_log_ids (id, source) select id, source from call_logs')
    await client.query(`select setval('call_logs_seq', coalesce((select max(seq) from call_logs), 0) + 1, false)`)
    await client.query('commit')
    // Statistics for the planner, and the visibility map that lets the covering indexes answer
    // alone (index-only scans, as the squad analytics read them); VACUUM cannot run in a transaction.
    await client.query('vacuum (analyze)')
    return counts
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  } finally {
    client.release()
  }
}

/**
 * Drops `table`'s indexes that no constraint owns; returns the statements that create them again.
 * A partitioned table's index reads `CREATE INDEX … ON ONLY call_logs …` (the parent alone):
 * without ONLY it is built on every partition too, as the migration built it.
 */
async function dropSecondaryIndexes(client: pg.PoolClient, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as definition
     from pg_index i
     where i.indrelid = $1::regclass and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)
     order by 1`,
    [table],
  )
  for (const { name } of rows) await client.query(`drop index ${name}`)
  return rows.map(({ definition }) => definition.replace(/ ON ONLY /, ' ON '))
}
