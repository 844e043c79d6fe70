import { type Kysely, type Migration, sql } from 'kysely'

/*
 * When an API token stops working: ISO 8601 UTC text like every timestamp here, null for a token
 * that never expires (every token made before this migration). Checked when a token is presented,
 * against the clock, so nothing has to run when a token expires. No index: authentication finds the
 * row by its hash. The check keeps an expiry after the token's creation. Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('expires_at', 'text', (c) => c.check(sql`expires_at is null or expires_at > created_at`))
    .execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_tokens').dropColumn('expires_at').execute()
}

export const tokenExpiry: Migration = { up, down }
