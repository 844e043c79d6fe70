import { type Kysely, type Migration, sql } from 'kysely'

/*
 * A pulled squad's analytics as the source answers them when no period is asked (issue 36 pt 5;
 * SQLite's 0022-pulled-default-analytics): the source's default period follows its clock, so a pull
 * keeps that answer beside the one for its own range. Null when none was fetched. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pulled_squad_analytics
    add column default_body json check (default_body is null or json_typeof(default_body) = 'object'),
    add column default_fetched_at timestamptz(3)`.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table pulled_squad_analytics drop column default_fetched_at, drop column default_body`.execute(db)
}

export const pulledDefaultAnalytics: Migration = { up, down }
