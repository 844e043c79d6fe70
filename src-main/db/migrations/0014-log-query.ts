import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The log explorer's query language (issue 17, point 1).
 *
 * - Substring search (`imeout` finds `timeout`): a second external-content FTS5 index over the
 *   messages with SQLite's trigram tokenizer (case and diacritics folded), kept in step by triggers
 *   as call_logs_fts is. detail=full, because a substring longer than three characters is a phrase
 *   of trigrams and FTS5 answers phrases only with positions; columnsize=0, because nothing ranks
 *   by length. About 134 MB on the 1,000,296-line demo store (docs/benchmarks.md).
 * - `user:` and `request:` filters: an index each, as call, trace and session have.
 *
 * Self-contained frozen snapshot: names and definitions are written out here.
 */

const TRIGGERS = [
  sql`create trigger call_logs_trigram_insert after insert on call_logs begin
    insert into call_logs_trigram(rowid, message) values (new.seq, new.message);
  end`,
  sql`create trigger call_logs_trigram_delete after delete on call_logs begin
    insert into call_logs_trigram(call_logs_trigram, rowid, message) values ('delete', old.seq, old.message);
  end`,
  sql`create trigger call_logs_trigram_update after update of message on call_logs begin
    insert into call_logs_trigram(call_logs_trigram, rowid, message) values ('delete', old.seq, old.message);
    insert into call_logs_trigram(rowid, message) values (new.seq, new.message);
  end`,
]

const INDEXES: Array<[string, string]> = [
  ['call_logs_user', 'user_id'],
  ['call_logs_request', 'request_id'],
]

async function up(db: Kysely<any>): Promise<void> {
  await sql`create virtual table call_logs_trigram using fts5(
    message, content = 'call_logs', content_rowid = 'seq',
    tokenize = 'trigram remove_diacritics 1', detail = full, columnsize = 0
  )`.execute(db)
  await sql`insert into call_logs_trigram(call_logs_trigram) values ('rebuild')`.execute(db)
  for (const trigger of TRIGGERS) await trigger.execute(db)
  for (const [name, column] of INDEXES) await db.schema.createIndex(name).on('call_logs').column(column).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  for (const [name] of INDEXES) await db.schema.dropIndex(name).ifExists().execute()
  for (const name of ['call_logs_trigram_insert', 'call_logs_trigram_delete', 'call_logs_trigram_update']) {
    await sql`drop trigger if exists ${sql.id(name)}`.execute(db)
  }
  await sql`drop table if exists call_logs_trigram`.execute(db)
}

export const logQuery: Migration = { up, down }
