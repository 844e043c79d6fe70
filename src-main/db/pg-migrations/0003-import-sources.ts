import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The source an import's call logs are stored under (issue 20 pt 4, `callscope push`; SQLite's
 * 0021-import-sources): '' for Callscope's own rows, else a pulled backend's base URL. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table imports add column call_log_source text collate "C" not null default ''
    check (char_length(call_log_source) <= 2048)`.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table imports drop column call_log_source`.execute(db)
}

export const importSources: Migration = { up, down }
