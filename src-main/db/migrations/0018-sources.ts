import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from 'kysely'

/*
 * More than one source (issue 15 pt 4): a store mirrors several backends (staging and production,
 * say) beside its own rows, without collisions when their ids overlap.
 *
 * - call_logs.source: '' for Callscope's own lines (seeded, created, imported), else the pulled
 *   backend's base URL (pulls.source), as every pulled_* table already keys its rows. A line is
 *   unique by (id, source): the same id from two backends is two lines. The unique index leads with
 *   id, so a lookup by id alone still uses it.
 * - pulled_tenants: pulled profiles keyed by (source, id), like pulled agents and sessions. They
 *   were upserted into tenants, where a second backend's tenant (or the first's, over a local one
 *   with the same id) overwrote the row. Pulled tenants move there, but for one that local rows
 *   hang from (an agent, squad, session, call or trunk): it stays too, as the local tenant it is.
 * - api_tokens: a token may be bound to a source (`source`: '' local, a base URL, null for every
 *   source), and a tenant token may name a pulled tenant, so its tenant_id no longer references
 *   tenants (the service checks that the tenant exists where the token is made). Rebuilt: SQLite
 *   cannot drop a foreign key in place. A token of a pulled tenant still in tenants keeps it there.
 * - tenant_rows: local and pulled tenants in one view, with their source, for every read that names
 *   a tenant (a call log's tenant is the one of its own source).
 *
 * Frozen snapshot.
 */

type Col = ColumnDefinitionBuilder

const flag = (name: string, value: 0 | 1) => (c: Col) => c.notNull().defaultTo(value).check(sql`${sql.ref(name)} in (0, 1)`)
const lengthBetween = (name: string, min: number, max: number) => (c: Col) =>
  c.notNull().check(sql`length(${sql.ref(name)}) between ${sql.lit(min)} and ${sql.lit(max)}`)

/** The tenant columns, as tenants has them (0001). */
const TENANT_COLUMNS = [
  'id', 'name', 'billing_plan', 'status', 'sip_enabled', 'recording_enabled', 'analytics_enabled', 'max_concurrent_calls',
  'monthly_call_limit', 'monthly_usage_cents', 'meta_data', 'sip_domain', 'sip_username', 'hipaa_enabled', 'pci_enabled',
  'recording_format', 'retention_days', 'data_encryption_enabled', 'webhook_url', 'webhook_timeout_seconds', 'created_at', 'updated_at',
] as const

async function createPulledTenants(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pulled_tenants')
    .addColumn('source', 'text', (c) => c.notNull().check(sql`length(source) between 1 and 2048`))
    .addColumn('id', 'text', lengthBetween('id', 1, 255))
    .addColumn('name', 'text', lengthBetween('name', 1, 255))
    .addColumn('billing_plan', 'text', lengthBetween('billing_plan', 1, 100))
    .addColumn('status', 'text', lengthBetween('status', 1, 50))
    .addColumn('sip_enabled', 'integer', flag('sip_enabled', 0))
    .addColumn('recording_enabled', 'integer', flag('recording_enabled', 1))
    .addColumn('analytics_enabled', 'integer', flag('analytics_enabled', 1))
    .addColumn('max_concurrent_calls', 'integer', (c) => c.notNull())
    .addColumn('monthly_call_limit', 'integer', (c) => c.notNull())
    .addColumn('monthly_usage_cents', 'integer', (c) => c.notNull())
    .addColumn('meta_data', 'text', (c) => c.check(sql`meta_data is null or (json_valid(meta_data) and json_type(meta_data) = 'object')`))
    .addColumn('sip_domain', 'text')
    .addColumn('sip_username', 'text')
    .addColumn('hipaa_enabled', 'integer', flag('hipaa_enabled', 0))
    .addColumn('pci_enabled', 'integer', flag('pci_enabled', 0))
    .addColumn('recording_format', 'text', lengthBetween('recording_format', 1, 20))
    .addColumn('retention_days', 'integer', (c) => c.notNull())
    .addColumn('data_encryption_enabled', 'integer', flag('data_encryption_enabled', 1))
    .addColumn('webhook_url', 'text')
    .addColumn('webhook_timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_tenants_pk', ['source', 'id'])
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulled_tenants_name').on('pulled_tenants').column('name').execute()
}

async function rebuildTokens(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens_new')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', lengthBetween('name', 1, 100))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique().check(sql`length(token_hash) = 64`))
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'viewer', 'tenant')`))
    .addColumn('tenant_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('expires_at', 'text', (c) => c.check(sql`expires_at is null or expires_at > created_at`))
    .addColumn('source', 'text')
    .addCheckConstraint('api_tokens_tenant_scope', sql`(role = 'tenant') = (tenant_id is not null)`)
    .modifyEnd(sql`strict`)
    .execute()
  await sql`insert into api_tokens_new (id, name, token_hash, token_prefix, role, tenant_id, created_at, last_used_at, revoked_at, expires_at)
    select id, name, token_hash, token_prefix, role, tenant_id, created_at, last_used_at, revoked_at, expires_at from api_tokens`.execute(db)
  await db.schema.dropTable('api_tokens').execute()
  await db.schema.alterTable('api_tokens_new').renameTo('api_tokens').execute()
}

/** Pulled tenants that no local row hangs from: they leave tenants for pulled_tenants. */
const DETACHED = sql`t.pull_id is not null
  and not exists (select 1 from agents a where a.tenant_id = t.id)
  and not exists (select 1 from squads s where s.tenant_id = t.id)
  and not exists (select 1 from conversations c where c.tenant_id = t.id)
  and not exists (select 1 from calls k where k.tenant_id = t.id)
  and not exists (select 1 from sip_inbound_trunks r where r.tenant_id = t.id)
  and not exists (select 1 from transfers x where x.tenant_id = t.id)`

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('call_logs').addColumn('source', 'text', (c) => c.notNull().defaultTo('')).execute()
  await sql`update call_logs set source = (select p.source from pulls p where p.id = call_logs.pull_id)
    where pull_id is not null and exists (select 1 from pulls p where p.id = call_logs.pull_id)`.execute(db)
  await db.schema.dropIndex('call_logs_id').execute()
  await db.schema.createIndex('call_logs_id').on('call_logs').columns(['id', 'source']).unique().execute()

  await rebuildTokens(db)
  await createPulledTenants(db)
  const columns = sql.join(TENANT_COLUMNS.map((c) => sql.ref(`t.${c}`)))
  await sql`insert into pulled_tenants (source, ${sql.join(TENANT_COLUMNS.map((c) => sql.ref(c)))}, fetched_at, pull_id)
    select p.source, ${columns}, p.started_at, t.pull_id from tenants t join pulls p on p.id = t.pull_id`.execute(db)
  await sql`delete from tenants as t where ${DETACHED}`.execute(db)

  const plain = sql.join(TENANT_COLUMNS.map((c) => sql.ref(c)))
  await sql`create view tenant_rows as
    select '' as source, ${plain}, pull_id, null as fetched_at from tenants
    union all
    select source, ${plain}, pull_id, fetched_at from pulled_tenants`.execute(db)
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`drop view tenant_rows`.execute(db)
  const plain = sql.join(TENANT_COLUMNS.map((c) => sql.ref(c)))
  // Back into tenants, the newest fetch of an id winning, as the upsert used to leave it.
  await sql`insert or ignore into tenants (${plain}, pull_id)
    select ${plain}, pull_id from pulled_tenants order by fetched_at desc`.execute(db)
  await db.schema.dropTable('pulled_tenants').execute()
  await sql`delete from call_logs where seq in (select seq from (select seq, row_number() over (partition by id order by source = '' desc, seq) as n from call_logs) where n > 1)`.execute(db)
  await db.schema.dropIndex('call_logs_id').execute()
  await db.schema.createIndex('call_logs_id').on('call_logs').column('id').unique().execute()
  await db.schema.alterTable('call_logs').dropColumn('source').execute()
  // api_tokens keeps its rebuilt shape (no foreign key to tenants), less the source binding.
  await db.schema.alterTable('api_tokens').dropColumn('source').execute()
}

export const sources: Migration = { up, down }
