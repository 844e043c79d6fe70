import { type Kysely, sql } from 'kysely'
import type { Database } from './schema'

/*
 * call_logs on PostgreSQL is partitioned by UTC month (pg-migrations/0001-schema.ts): one table
 * call_logs_YYYY_MM per month. A row whose month has no partition cannot be written, so every write
 * path creates the months it needs first, and the store's start creates the current month and the
 * next ones ahead, so the live ingest of a long-running server never waits on DDL.
 */

/** Months created ahead of the current one when the store starts. */
export const PARTITION_MONTHS_AHEAD = 2

/** Creates the monthly partitions covering [first, last] that are missing; returns how many it created. */
export async function ensureCallLogPartitions(db: Kysely<Database>, first: string, last: string): Promise<number> {
  const { rows } = await sql<{ created: number }>`select callscope_call_log_partitions(${first}::timestamptz, ${last}::timestamptz) as created`.execute(db)
  return Number(rows[0]?.created ?? 0)
}

/** The current UTC month and PARTITION_MONTHS_AHEAD after it. */
export function ensurePartitionsAhead(db: Kysely<Database>, now = new Date()): Promise<number> {
  const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + PARTITION_MONTHS_AHEAD, 1))
  return ensureCallLogPartitions(db, now.toISOString(), ahead.toISOString())
}

/** The call log partitions, oldest first, with the first instant of their month. */
export async function callLogPartitions(db: Kysely<Database>): Promise<{ name: string; month: string }[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'call_logs'::regclass
    order by c.relname`.execute(db)
  return rows.map(({ name }) => ({ name, month: `${name.slice(10, 14)}-${name.slice(15, 17)}-01T00:00:00.000Z` }))
}

/**
 * Retention: detaches every partition of a month before `before` (an instant) from call_logs, so
 * its lines leave every query at once; the tables stay, to archive (pg_dump -t) and drop. Returns
 * the detached tables' names, in one transaction with the deletion of their day counts. Their ids stay in
 * call_log_ids: a line that comes back is still a duplicate.
 */
export async function detachCallLogPartitionsBefore(db: Kysely<Database>, before: string): Promise<string[]> {
  const old = (await callLogPartitions(db)).filter((p) => p.month < before && monthEnd(p.month) <= before)
  await db.transaction().execute(async (tx) => {
    for (const { name, month } of old) {
      await sql`alter table call_logs detach partition ${sql.table(name)}`.execute(tx)
      // The month's day counts (pg-migrations/0004) leave with its lines.
      await tx.deleteFrom('call_log_day_counts').where('day', '>=', month.slice(0, 10)).where('day', '<', monthEnd(month).slice(0, 10)).execute()
    }
  })
  return old.map((p) => p.name)
}

function monthEnd(monthStart: string): string {
  const d = new Date(monthStart)
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString()
}
