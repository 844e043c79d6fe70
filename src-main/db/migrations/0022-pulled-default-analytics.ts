import { type Kysely, type Migration, sql } from 'kysely'

/*
 * A pulled squad's analytics as the source answers them when no period is asked (issue 36 pt 5):
 * the source picks its default period by its own clock (the last 30 days until now), which no
 * pulled row recomputes, so a pull fetches that answer too and keeps it beside the one for its own
 * range; the mirror serves it to a request without dates. Null for a squad pulled before this, or
 * when the source did not answer the date-less request with a JSON object. `default_fetched_at` is
 * when that answer came: the instant the source's clock stood at, served as `Callscope-Defaults-At`.
 * Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('pulled_squad_analytics')
    .addColumn('default_body', 'text', (c) => c.check(sql`default_body is null or (json_valid(default_body) and json_type(default_body) = 'object')`))
    .execute()
  await db.schema.alterTable('pulled_squad_analytics').addColumn('default_fetched_at', 'text').execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pulled_squad_analytics').dropColumn('default_fetched_at').execute()
  await db.schema.alterTable('pulled_squad_analytics').dropColumn('default_body').execute()
}

export const pulledDefaultAnalytics: Migration = { up, down }
