import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The word-folding functions name the functions they call by schema (issue 36 pt 4, restoring a
 * pg_dump): pg_restore runs with an empty search_path, so `callscope_search_text`'s unqualified
 * call to `callscope_unaccent` failed while it created call_logs (its generated message_search
 * column inlines it) and the restore stopped there. Same bodies otherwise: the generated column and
 * the trigram index hold the same values and still use these functions (by oid, as before), and
 * schema-qualified SQL functions are inlined as before. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await sql`create or replace function callscope_search_text(text) returns text language sql immutable parallel safe strict
      as $$ select lower(regexp_replace(public.callscope_unaccent($1) collate "und-x-icu", '[^[:alnum:]]+', ' ', 'g')) $$`.execute(db)
  await sql`create or replace function callscope_fold(text) returns text language sql immutable parallel safe strict
      as $$ select lower(public.callscope_unaccent($1) collate "und-x-icu") $$`.execute(db)
  await sql`create or replace function callscope_word_query(term text, prefix boolean) returns tsquery language sql immutable parallel safe strict
      as $$
        select case when cardinality(words) = 0 then null else
          to_tsquery('simple', array_to_string(array(select '''' || w || '''' from unnest(words) as w), ' <-> ')
            || case when prefix then ':*' else '' end)
        end
        from (select array_remove(regexp_split_to_array(btrim(public.callscope_search_text(term)), ' '), '') as words) as split
      $$`.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`create or replace function callscope_search_text(text) returns text language sql immutable parallel safe strict
      as $$ select lower(regexp_replace(callscope_unaccent($1) collate "und-x-icu", '[^[:alnum:]]+', ' ', 'g')) $$`.execute(db)
  await sql`create or replace function callscope_fold(text) returns text language sql immutable parallel safe strict
      as $$ select lower(callscope_unaccent($1) collate "und-x-icu") $$`.execute(db)
}

export const restorableFunctions: Migration = { up, down }
