import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Webhooks (issue 18): per-tenant signing secrets (sealed as provider keys are), the delivery log
 * of test-sends (one row per delivery, one per attempt), and the inbox of events a backend sent to
 * this laptop. Tenant ids carry no foreign key, as call logs do not: a reseed or a pull replaces
 * tenants, and what was sent or received stays part of the record. Frozen snapshot.
 */

const table = (db: Kysely<any>, name: string) => db.schema.createTable(name).modifyEnd(sql`strict`)
const jsonObject = (name: string) => sql`json_valid(${sql.ref(name)}) and json_type(${sql.ref(name)}) = 'object'`
const flag = (name: string) => sql`${sql.ref(name)} in (0, 1)`

async function up(db: Kysely<any>): Promise<void> {
  await table(db, 'webhook_secrets')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey())
    // Sealed with the store's secret box (providers/secret-box.ts), bound to the tenant id.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()

  await table(db, 'webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('webhook_id', 'text', (c) => c.notNull())
    .addColumn('call_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull().check(sql`url like 'http://%' or url like 'https://%'`))
    .addColumn('payload', 'text', (c) => c.notNull().check(jsonObject('payload')))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('stored', 'example')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'retrying', 'succeeded', 'failed')`))
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull().check(sql`max_attempts >= 1`))
    .addColumn('next_attempt_at', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error_kind', 'text')
    // The process sending it: a delivery left pending by a process that is gone reads as interrupted.
    .addColumn('pid', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('replay_of', 'text')
    .execute()
  await db.schema.createIndex('webhook_deliveries_tenant_created').on('webhook_deliveries').columns(['tenant_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('webhook_deliveries_call').on('webhook_deliveries').columns(['call_id', 'created_at']).execute()

  await table(db, 'webhook_attempts')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull().check(sql`number >= 1`))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('request_headers', 'text', (c) => c.notNull().check(jsonObject('request_headers')))
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text', (c) => c.check(sql`response_headers is null or (${jsonObject('response_headers')})`))
    .addColumn('response_excerpt', 'text')
    .addColumn('response_truncated', 'integer', (c) => c.notNull().defaultTo(0).check(flag('response_truncated')))
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error_kind', 'text')
    .addColumn('error_message', 'text')
    .addColumn('succeeded', 'integer', (c) => c.notNull().check(flag('succeeded')))
    .addColumn('next_retry_at', 'text')
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['delivery_id', 'number'])
    .execute()

  await table(db, 'webhook_inbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('accepted', 'rejected')`))
    .addColumn('reason', 'text')
    .addColumn('webhook_id', 'text')
    .addColumn('event_type', 'text')
    .addColumn('call_id', 'text')
    .addColumn('signed_at', 'text')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull().check(jsonObject('headers')))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('body_truncated', 'integer', (c) => c.notNull().defaultTo(0).check(flag('body_truncated')))
    .addColumn('remote_address', 'text')
    .execute()
  // Replay protection: an accepted webhook-id is accepted once per tenant.
  await sql`create unique index webhook_inbox_accepted_id on webhook_inbox (tenant_id, webhook_id) where status = 'accepted'`.execute(db)
  await db.schema.createIndex('webhook_inbox_tenant_received').on('webhook_inbox').columns(['tenant_id', 'received_at', 'id']).execute()
  await db.schema.createIndex('webhook_inbox_call').on('webhook_inbox').columns(['call_id', 'received_at']).execute()
}

async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['webhook_inbox', 'webhook_attempts', 'webhook_deliveries', 'webhook_secrets']) await db.schema.dropTable(name).ifExists().execute()
}

export const webhooks: Migration = { up, down }
