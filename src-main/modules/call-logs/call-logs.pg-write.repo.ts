import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type pg from 'pg'
import { from as copyFrom } from 'pg-copy-streams'
import { copyLines } from '../../db/pg-copy-text'
import { type CallLogValues, STORED_CALL_LOG_COLUMNS } from './call-log-values'
import type { CallLogOrigin } from './call-logs.write.repo'

/*
 * The call log write path on a PostgreSQL store (issue 20), the counterpart of the SQLite pieces of
 * call-logs.write.repo.ts, shared by imports and pulls: rows COPY'd (pg-copy-streams) into a
 * staging table of the connection's own, the months they need given partitions, then one
 * `INSERT … SELECT` that claims each (id, source) in call_log_ids (`ON CONFLICT DO NOTHING`: the
 * dedupe; a partitioned table cannot hold that unique index itself) and writes the lines that won,
 * in file order so `seq` follows it as on SQLite. Indexes stay live and the tsvector column is
 * generated, so there is nothing to rebuild or batch afterwards; constraints stay on.
 */

const COLUMNS = STORED_CALL_LOG_COLUMNS.map((c) => `"${c}"`).join(', ')
const FROM_STAGED = STORED_CALL_LOG_COLUMNS.map((c) => `f."${c}"`).join(', ')

/**
 * Creates the connection's staging table unless it has one: a temporary table (this session's
 * alone, never WAL-logged). `ord` numbers the rows in the order they were read.
 */
export async function openCallLogStaging(client: pg.ClientBase): Promise<void> {
  await client.query(`create temp table if not exists call_log_staging (
    ord bigint not null,
    id text collate "C" not null, tenant_id text not null, log_type text not null, log_level text not null,
    message text not null, "timestamp" timestamptz(3) not null, agent_id text, session_id text, call_id text,
    details json not null, user_id text, trace_id text, request_id text, log_level_original text)`)
}

/**
 * Empties the staging table and COPYs `chunks` into it: COPY text lines of `ord` then the
 * STORED_CALL_LOG_COLUMNS (modules/imports/copy-batches.ts). Outside any transaction: the table is
 * the session's own.
 */
export async function stageCallLogs(client: pg.ClientBase, chunks: readonly Uint8Array[]): Promise<void> {
  await client.query('truncate pg_temp.call_log_staging')
  const stream = client.query(copyFrom(`copy pg_temp.call_log_staging (ord, ${COLUMNS}) from stdin`))
  await pipeline(Readable.from(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength))), stream)
}

/**
 * Creates the partitions of the months the staged rows fall in that are missing (only those months,
 * not the range between them: a file with one line from 1990 adds one table, not four hundred).
 * Its own short transaction, before the rows' own: creating a partition locks call_logs, which
 * readers should not wait on for a whole batch.
 */
export async function ensureStagedMonths(client: pg.ClientBase): Promise<number> {
  const { rows } = await client.query<{ created: string | number }>(`
    select coalesce(sum(callscope_call_log_partitions(m, m)), 0) as created
    from (select distinct date_trunc('month', "timestamp" at time zone 'UTC') at time zone 'UTC' as m from pg_temp.call_log_staging) months`)
  return Number(rows[0]?.created ?? 0)
}

/**
 * Writes the staged rows whose (id, source) no stored line has: the first of two staged rows with
 * the same id wins, as the first insert does on SQLite. Run inside the caller's transaction.
 * Returns how many it wrote, and with `ids`, which ids (a pull answers per row).
 */
export async function insertStagedCallLogs(client: pg.ClientBase, origin: CallLogOrigin, ids = false): Promise<{ written: number; ids: Set<string> }> {
  const source = origin.source ?? ''
  const importId = 'import_id' in origin ? origin.import_id : null
  const pullId = 'pull_id' in origin ? origin.pull_id : null
  const result = await client.query<{ id: string }>(
    `with fresh as materialized (
       select distinct on (id) * from pg_temp.call_log_staging order by id, ord
     ), taken as (
       insert into call_log_ids (id, source) select id, $1 from fresh on conflict do nothing returning id
     )
     insert into call_logs (${COLUMNS}, import_id, pull_id, source)
     select ${FROM_STAGED}, $2, $3, $1 from fresh f join taken t on t.id = f.id order by f.ord
     ${ids ? 'returning id' : ''}`,
    [source, importId, pullId],
  )
  return { written: result.rowCount ?? 0, ids: new Set(result.rows.map((r) => r.id)) }
}

/** Runs `work` in a transaction on `client`: committed when it returns, rolled back when it throws. */
export async function inTransaction<T>(client: pg.ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('begin')
  try {
    const result = await work()
    await client.query('commit')
    return result
  } catch (error) {
    await client.query('rollback').catch(() => {})
    throw error
  }
}

/**
 * Stores checked rows in one transaction (the PostgreSQL side of storeCallLogs, for a pull's
 * window); per row, whether it was new. A connection of its own for the staging table.
 */
export async function storeCallLogsPg(
  pool: pg.Pool,
  origin: CallLogOrigin,
  rows: CallLogValues[],
  /** More writes that must commit with the rows or not at all (a pull's cursors and progress), told per row whether it was new. */
  alongside?: (client: pg.ClientBase, stored: boolean[]) => Promise<void>,
): Promise<boolean[]> {
  if (rows.length === 0 && !alongside) return []
  const client = await pool.connect()
  let failure: Error | undefined
  try {
    await openCallLogStaging(client)
    await stageCallLogs(client, [Buffer.from(copyLines(rows, (i) => i))])
    await ensureStagedMonths(client)
    return await inTransaction(client, async () => {
      const { ids } = await insertStagedCallLogs(client, origin, true)
      // The first row with a written id is the one written (insertStagedCallLogs); later ones were duplicates.
      const stored = rows.map((values) => ids.delete(values[0]!))
      await alongside?.(client, stored)
      return stored
    })
  } catch (error) {
    failure = error as Error
    throw error
  } finally {
    // A connection that failed mid-COPY may be in any state: the pool replaces it.
    client.release(failure)
  }
}
