import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Indexes on the details keys call logs carry most (issue 17: a details filter, facet or count by
 * one of them no longer reads every line). On the 1,000,296-line demo store, `provider`, `model`
 * and `latency_ms` are in about 40% of the lines, `status` (HTTP and tool status) in 6%; no line
 * there has `status_code`, the name other backends give an HTTP status, whose empty index costs
 * nothing but the test of each line written (docs/benchmarks.md).
 *
 * One index per key on (JSON type, value under NOCASE, timestamp), only over the lines that have
 * the key (a partial index: most lines have none of them, and an index of NULLs would cost as much
 * as one of values). The type leads, so "a number above 2000" and "the text groq" are each one
 * range; NOCASE is the query language's "any case of ASCII letters"; timestamp (with seq, the
 * rowid, after it) gives newest first without a sort, as every other index of call_logs does.
 * The expressions are the ones details-values.ts writes, path literal included: SQLite uses an
 * index on an expression only for the same expression.
 *
 * Frozen snapshot: the keys and the definition are written out here.
 */

const KEYS = ['provider', 'model', 'status', 'status_code', 'latency_ms'] as const

const indexSql = (key: string) =>
  sql.raw(
    `create index call_logs_details_${key} on call_logs (json_type(details, '$.${key}'), json_extract(details, '$.${key}') collate nocase, timestamp) ` +
      `where json_type(details, '$.${key}') is not null`,
  )

async function up(db: Kysely<any>): Promise<void> {
  for (const key of KEYS) await indexSql(key).execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  for (const key of KEYS) await db.schema.dropIndex(`call_logs_details_${key}`).ifExists().execute()
}

export const detailsIndexes: Migration = { up, down }
