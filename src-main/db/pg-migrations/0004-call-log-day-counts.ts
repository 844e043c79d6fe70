import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Call log counts per UTC day (issue 20: the 10-million-line benchmark). Facets over every line
 * of a bare time range took 23 s on PostgreSQL at ten million lines: each value counted over its
 * index, every line visited. This table keeps, per day, how many lines each (source, tenant,
 * agent, level, type) has: about 200,000 rows for those ten million lines, so whole days are
 * summed from it and only the partial days at a range's ends are read from call_logs
 * (call-logs.day-combos.ts). PostgreSQL only: SQLite's per-value index counts stay fast at the
 * sizes a laptop holds, and its row triggers would cost every import (docs/architecture.md).
 *
 * Kept by a statement trigger on call_logs with a transition table: one grouped upsert per
 * INSERT or COPY statement, whatever path wrote the lines (import, pull, push, the API), in the
 * statement's own transaction. Lines are never updated or deleted (retention detaches a month,
 * and pg-partitions.ts deletes that month's counts with it). `callscope_count_call_logs()`
 * rebuilds the table from call_logs: this migration's backfill, and the bulk copy, which turns the
 * trigger off while it copies (pg-copy.ts). Frozen snapshot.
 */

const STATEMENTS = [
  sql`create table call_log_day_counts (
    day date not null,
    source text collate "C" not null,
    tenant_id text collate "C" not null,
    agent_id text collate "C",
    log_level text collate "C" not null,
    log_type text collate "C" not null,
    lines bigint not null check (lines > 0)
  )`,
  // One row per key, a line without an agent included: NULLS NOT DISTINCT (PostgreSQL 15).
  sql`create unique index call_log_day_counts_key on call_log_day_counts (day, source, tenant_id, agent_id, log_level, log_type) nulls not distinct`,
  // Ordered by the key: two statements upserting the same days lock their rows in one order.
  sql`create function callscope_counted_call_logs() returns trigger language plpgsql as $$
    begin
      insert into call_log_day_counts as c (day, source, tenant_id, agent_id, log_level, log_type, lines)
        select ("timestamp" at time zone 'UTC')::date, source, tenant_id, agent_id, log_level, log_type, count(*)
        from new_lines group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
      on conflict (day, source, tenant_id, agent_id, log_level, log_type) do update set lines = c.lines + excluded.lines;
      return null;
    end $$`,
  sql`create trigger call_logs_counted after insert on call_logs
    referencing new table as new_lines for each statement execute function callscope_counted_call_logs()`,
  sql`create function callscope_count_call_logs() returns bigint language sql as $$
    delete from call_log_day_counts;
    insert into call_log_day_counts (day, source, tenant_id, agent_id, log_level, log_type, lines)
      select ("timestamp" at time zone 'UTC')::date, source, tenant_id, agent_id, log_level, log_type, count(*)
      from call_logs group by 1, 2, 3, 4, 5, 6;
    select count(*) from call_log_day_counts;
  $$`,
  sql`select callscope_count_call_logs()`,
]

async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await statement.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger call_logs_counted on call_logs`.execute(db)
  await sql`drop function callscope_counted_call_logs()`.execute(db)
  await sql`drop function callscope_count_call_logs()`.execute(db)
  await sql`drop table call_log_day_counts`.execute(db)
}

export const callLogDayCounts: Migration = { up, down }
