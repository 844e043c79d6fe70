import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The call log explorer's reads on PostgreSQL (issue 20 pt 2). Frozen snapshot: key lists are
 * written out here.
 *
 * - Words split as SQLite's unicode61 tokenizer splits them, not as PostgreSQL's default parser
 *   does (which keeps `api.example.com`, `3.14`, `a/b/c`, `gpt-4o` as tokens of their own, so a
 *   word inside them would not be found). `callscope_search_text` folds the message first:
 *   diacritics removed (unaccent), every run of characters that are not letters or digits made one
 *   space, Unicode case folded; both ICU's (`und-x-icu`), whatever the database's locale. The
 *   `simple` configuration then only lower-cases what is already lower case. `message_search`
 *   (0001) is rebuilt over it.
 * - `callscope_word_query(term, prefix)`: one search term (a word or a phrase, its last word a
 *   prefix when asked) as a tsquery, its words split by the same function: `'rate' <-> 'limit':*`.
 * - Substrings: pg_trgm over the message folded as SQLite's trigram table folds it (any case,
 *   diacritics removed): `callscope_fold(message) like '%…%'`. The trigram index of 0001 was on the
 *   raw message; it is replaced by one on that expression.
 * - `callscope_budget(deadline)`: the query budget's stop (db/query-budget.ts), as SQLite's
 *   registered function: a read carries `(seq % 1024 <> 0 or callscope_budget(<epoch ms>))` and
 *   stops with the same message past its deadline.
 * - `details` keys with an index of their own (SQLite's 0019: provider, model, status,
 *   status_code, latency_ms): `(json_typeof(details -> 'k'), lower((details ->> 'k') collate "C"),
 *   timestamp)` over the lines that have the key. lower() under "C" folds ASCII letters only, as
 *   SQLite's NOCASE does.
 */

const INDEXED_KEYS = ['provider', 'model', 'status', 'status_code', 'latency_ms']

const STATEMENTS = [
  sql`create function callscope_search_text(text) returns text language sql immutable parallel safe strict
      as $$ select lower(regexp_replace(callscope_unaccent($1) collate "und-x-icu", '[^[:alnum:]]+', ' ', 'g')) $$`,
  sql`create function callscope_fold(text) returns text language sql immutable parallel safe strict
      as $$ select lower(callscope_unaccent($1) collate "und-x-icu") $$`,
  // Words are runs of letters and digits once folded, so quoting each one is safe; null when none.
  sql`create function callscope_word_query(term text, prefix boolean) returns tsquery language sql immutable parallel safe strict
      as $$
        select case when cardinality(words) = 0 then null else
          to_tsquery('simple', array_to_string(array(select '''' || w || '''' from unnest(words) as w), ' <-> ')
            || case when prefix then ':*' else '' end)
        end
        from (select array_remove(regexp_split_to_array(btrim(callscope_search_text(term)), ' '), '') as words) as split
      $$`,
  sql`create function callscope_budget(deadline bigint) returns boolean language plpgsql volatile parallel safe
      as $$
      begin
        if (extract(epoch from clock_timestamp()) * 1000) >= deadline then
          raise exception 'CALLSCOPE_QUERY_BUDGET_EXCEEDED' using errcode = '57014';
        end if;
        return true;
      end $$`,
  sql`drop index call_logs_message_search`,
  sql`alter table call_logs drop column message_search`,
  sql`alter table call_logs add column message_search tsvector generated always as (to_tsvector('simple', callscope_search_text(message))) stored`,
  sql`create index call_logs_message_search on call_logs using gin (message_search)`,
  sql`drop index call_logs_message_trigram`,
  sql`create index call_logs_message_trigram on call_logs using gin (callscope_fold(message) gin_trgm_ops)`,
  ...INDEXED_KEYS.map((key) =>
    sql.raw(
      `create index call_logs_details_${key} on call_logs (json_typeof(details -> '${key}'), lower((details ->> '${key}') collate "C"), "timestamp") ` +
        `where details -> '${key}' is not null`,
    ),
  ),
]

export const explorerReads: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    for (const statement of STATEMENTS) await statement.execute(db)
  },
}
