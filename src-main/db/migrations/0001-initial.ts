import { type ColumnDefinitionBuilder, type Kysely, type Migration, sql } from 'kysely'

/*
 * The whole data model of the first release. A migration is a frozen snapshot: its value lists are
 * written out here on purpose, not imported, so later edits to constants cannot rewrite history.
 */

type Col = ColumnDefinitionBuilder

const flag = (name: string, value: 0 | 1) => (c: Col) =>
  c.notNull().defaultTo(value).check(sql`${sql.ref(name)} in (0, 1)`)

const oneOf = (name: string, values: readonly string[]) => (c: Col) =>
  c.notNull().check(sql`${sql.ref(name)} in (${sql.join(values.map((v) => sql.lit(v)))})`)

const lengthBetween = (name: string, min: number, max: number) => (c: Col) =>
  c.notNull().check(sql`length(${sql.ref(name)}) between ${sql.lit(min)} and ${sql.lit(max)}`)

const jsonArray = (name: string) => (c: Col) =>
  c
    .notNull()
    .defaultTo('[]')
    .check(sql`json_valid(${sql.ref(name)}) and json_type(${sql.ref(name)}) = 'array'`)

const jsonObjectOrNull = (name: string) => (c: Col) =>
  c.check(sql`${sql.ref(name)} is null or (json_valid(${sql.ref(name)}) and json_type(${sql.ref(name)}) = 'object')`)

const ref = (table: string, onDelete: 'cascade' | 'set null' = 'cascade') => (c: Col) =>
  c.references(`${table}.id`).onDelete(onDelete)

// STRICT tables: SQLite enforces column types like any other engine would.
const table = (db: Kysely<any>, name: string) => db.schema.createTable(name).modifyEnd(sql`strict`)

async function up(db: Kysely<any>): Promise<void> {
  await table(db, 'tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', lengthBetween('name', 1, 255))
    .addColumn('billing_plan', 'text', lengthBetween('billing_plan', 1, 100))
    .addColumn('status', 'text', (c) =>
      lengthBetween('status', 1, 50)(c.defaultTo('active')),
    )
    .addColumn('sip_enabled', 'integer', flag('sip_enabled', 0))
    .addColumn('recording_enabled', 'integer', flag('recording_enabled', 1))
    .addColumn('analytics_enabled', 'integer', flag('analytics_enabled', 1))
    .addColumn('max_concurrent_calls', 'integer', (c) =>
      c.notNull().defaultTo(10).check(sql`max_concurrent_calls between 1 and 1000`),
    )
    .addColumn('monthly_call_limit', 'integer', (c) =>
      c.notNull().defaultTo(1000).check(sql`monthly_call_limit >= 0`),
    )
    .addColumn('monthly_usage_cents', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`monthly_usage_cents >= 0`),
    )
    .addColumn('meta_data', 'text', jsonObjectOrNull('meta_data'))
    .addColumn('sip_domain', 'text')
    .addColumn('sip_username', 'text')
    .addColumn('hipaa_enabled', 'integer', flag('hipaa_enabled', 0))
    .addColumn('pci_enabled', 'integer', flag('pci_enabled', 0))
    .addColumn('recording_format', 'text', (c) =>
      lengthBetween('recording_format', 1, 20)(c.defaultTo('mp4')),
    )
    .addColumn('retention_days', 'integer', (c) =>
      c.notNull().defaultTo(90).check(sql`retention_days >= 0`),
    )
    .addColumn('data_encryption_enabled', 'integer', flag('data_encryption_enabled', 1))
    .addColumn('webhook_url', 'text', (c) =>
      c.check(sql`webhook_url is null or webhook_url like 'http://%' or webhook_url like 'https://%'`),
    )
    .addColumn('webhook_timeout_seconds', 'integer', (c) =>
      c.notNull().defaultTo(20).check(sql`webhook_timeout_seconds >= 1`),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('tenants_name').on('tenants').column('name').execute()

  await table(db, 'agents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => ref('tenants')(c.notNull()))
    .addColumn('name', 'text', lengthBetween('name', 1, 255))
    .addColumn('description', 'text')
    .addColumn('languages', 'text', jsonArray('languages'))
    .addColumn('primary_language', 'text', (c) => c.notNull())
    .addColumn('llm_provider', 'text', (c) => c.notNull())
    .addColumn('llm_model', 'text', (c) => c.notNull())
    .addColumn('stt_provider', 'text', (c) => c.notNull())
    .addColumn('stt_model', 'text', (c) => c.notNull())
    .addColumn('tts_provider', 'text', (c) => c.notNull())
    .addColumn('tts_model', 'text', (c) => c.notNull())
    .addColumn('voice_id', 'text')
    .addColumn('status', 'text', (c) =>
      oneOf('status', ['active', 'inactive', 'draft', 'archived'])(c.defaultTo('active')),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('agents_tenant').on('agents').columns(['tenant_id', 'name']).execute()
  await db.schema.createIndex('agents_llm_provider').on('agents').column('llm_provider').execute()
  await db.schema.createIndex('agents_stt_provider').on('agents').column('stt_provider').execute()

  await table(db, 'squads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => ref('tenants')(c.notNull()))
    .addColumn('name', 'text', lengthBetween('name', 1, 255))
    .addColumn('description', 'text')
    .addColumn(
      'routing_strategy',
      'text',
      oneOf('routing_strategy', ['round_robin', 'least_busy', 'skills_based', 'language_match', 'priority']),
    )
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('squads_tenant').on('squads').column('tenant_id').execute()

  await table(db, 'squad_members')
    .addColumn('squad_id', 'text', (c) => ref('squads')(c.notNull()))
    .addColumn('agent_id', 'text', (c) => ref('agents')(c.notNull()))
    .addColumn('role', 'text', (c) => oneOf('role', ['lead', 'member', 'overflow'])(c.defaultTo('member')))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0).check(sql`priority >= 0`))
    .addColumn('skills', 'text', jsonArray('skills'))
    .addColumn('joined_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('squad_members_pk', ['squad_id', 'agent_id'])
    .execute()
  await db.schema.createIndex('squad_members_agent').on('squad_members').column('agent_id').execute()

  await table(db, 'conversations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => ref('tenants')(c.notNull()))
    .addColumn('agent_id', 'text', (c) => ref('agents')(c.notNull()))
    .addColumn('squad_id', 'text', ref('squads', 'set null'))
    .addColumn('channel', 'text', oneOf('channel', ['voice', 'chat']))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn(
      'status',
      'text',
      oneOf('status', ['active', 'completed', 'transferred', 'abandoned', 'failed']),
    )
    .addColumn('routing_strategy', 'text', (c) =>
      c.check(
        sql`routing_strategy is null or routing_strategy in ('round_robin', 'least_busy', 'skills_based', 'language_match', 'priority')`,
      ),
    )
    .addColumn('wait_ms', 'integer', (c) => c.check(sql`wait_ms is null or wait_ms >= 0`))
    .addColumn('resolved', 'integer', (c) => c.check(sql`resolved is null or resolved in (0, 1)`))
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addCheckConstraint('conversations_times', sql`updated_at >= created_at and (ended_at is null or ended_at >= created_at)`)
    .execute()
  // Sessions listing: newest first per agent, id as the tie-break.
  await db.schema
    .createIndex('conversations_agent_created')
    .on('conversations')
    .columns(['agent_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('conversations_squad_created')
    .on('conversations')
    .columns(['squad_id', 'created_at'])
    .execute()
  await db.schema
    .createIndex('conversations_tenant_created')
    .on('conversations')
    .columns(['tenant_id', 'created_at'])
    .execute()

  await table(db, 'messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('conversation_id', 'text', (c) => ref('conversations')(c.notNull()))
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position >= 0`))
    .addColumn('role', 'text', oneOf('role', ['system', 'user', 'assistant', 'tool']))
    .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('language', 'text')
    .addColumn('tool_name', 'text')
    .addColumn('tool_call_id', 'text')
    .addColumn('tool_arguments', 'text', jsonObjectOrNull('tool_arguments'))
    .addColumn('tool_result', 'text', (c) =>
      c.check(sql`tool_result is null or json_valid(tool_result)`),
    )
    .addColumn('latency_ms', 'integer', (c) => c.check(sql`latency_ms is null or latency_ms >= 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addCheckConstraint(
      'messages_tool_call',
      sql`(tool_arguments is null and tool_result is null) or tool_name is not null`,
    )
    .addUniqueConstraint('messages_conversation_position', ['conversation_id', 'position'])
    .execute()

  await table(db, 'sip_inbound_trunks')
    .addColumn('sip_trunk_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', ref('tenants'))
    .addColumn('name', 'text', lengthBetween('name', 1, 255))
    .addColumn('numbers', 'text', jsonArray('numbers'))
    .addColumn('allowed_addresses', 'text', jsonArray('allowed_addresses'))
    .addColumn('allowed_numbers', 'text', jsonArray('allowed_numbers'))
    .addColumn('auth_username', 'text')
    .addColumn('auth_password_set', 'integer', flag('auth_password_set', 0))
    .addColumn('metadata', 'text')
    .addColumn('krisp_enabled', 'integer', flag('krisp_enabled', 0))
    .addColumn('source', 'text', (c) => oneOf('source', ['store', 'livekit'])(c.defaultTo('store')))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('sip_inbound_trunks_tenant').on('sip_inbound_trunks').column('tenant_id').execute()

  await table(db, 'calls')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => ref('tenants')(c.notNull()))
    .addColumn('agent_id', 'text', ref('agents', 'set null'))
    .addColumn('conversation_id', 'text', ref('conversations', 'set null'))
    .addColumn('sip_trunk_id', 'text', (c) =>
      c.references('sip_inbound_trunks.sip_trunk_id').onDelete('set null'),
    )
    .addColumn('direction', 'text', oneOf('direction', ['inbound', 'outbound']))
    .addColumn('from_number', 'text', (c) => c.notNull())
    .addColumn('to_number', 'text', (c) => c.notNull())
    .addColumn(
      'status',
      'text',
      oneOf('status', ['completed', 'failed', 'no_answer', 'busy', 'in_progress']),
    )
    .addColumn('end_reason', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('answered_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.check(sql`duration_ms is null or duration_ms >= 0`))
    .addCheckConstraint('calls_times', sql`ended_at is null or ended_at >= started_at`)
    .execute()
  await db.schema.createIndex('calls_tenant_started').on('calls').columns(['tenant_id', 'started_at']).execute()
  await db.schema.createIndex('calls_agent_started').on('calls').columns(['agent_id', 'started_at']).execute()
  await db.schema.createIndex('calls_conversation').on('calls').column('conversation_id').execute()
  await db.schema.createIndex('calls_trunk').on('calls').column('sip_trunk_id').execute()

  // Call logs reference tenants, agents, sessions and calls loosely (no foreign keys): imported and
  // pulled logs come from backends whose other records may never be in this store.
  await table(db, 'call_logs')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('log_type', 'text', (c) =>
      c
        .notNull()
        .check(
          sql`length(log_type) between 1 and 50 and log_type glob '[a-z]*' and not log_type glob '*[^a-z0-9_.]*'`,
        ),
    )
    .addColumn('log_level', 'text', oneOf('log_level', ['debug', 'info', 'warning', 'error', 'critical']))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('timestamp', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('call_id', 'text')
    .addColumn('details', 'text', (c) =>
      // One JSON parse per row: valid JSON that starts with '{' is an object.
      c.notNull().defaultTo('{}').check(sql`json_valid(details) and substr(details, 1, 1) = '{'`),
    )
    .addColumn('user_id', 'text')
    .addColumn('trace_id', 'text')
    .addColumn('request_id', 'text')
    .execute()
  // A named index rather than a column constraint, so a bulk load can build it once at the end.
  await db.schema.createIndex('call_logs_id').on('call_logs').column('id').unique().execute()
  // One index per filter the API and console offer; seq (the rowid) rides along in each,
  // so "timestamp desc, seq desc" is served without a sort. A call or trace holds a few dozen
  // lines, sorted in no time, so those two pivots need no timestamp column.
  const logIndexes: Array<[string, string[]]> = [
    ['call_logs_timestamp', ['timestamp']],
    ['call_logs_agent_timestamp', ['agent_id', 'timestamp']],
    ['call_logs_tenant_timestamp', ['tenant_id', 'timestamp']],
    ['call_logs_level_timestamp', ['log_level', 'timestamp']],
    ['call_logs_type_timestamp', ['log_type', 'timestamp']],
    ['call_logs_call', ['call_id']],
    ['call_logs_trace', ['trace_id']],
  ]
  for (const [name, columns] of logIndexes) {
    await db.schema.createIndex(name).on('call_logs').columns(columns).execute()
  }
  // Full-text search over messages: external-content FTS5 kept in step by triggers.
  await sql`create virtual table call_logs_fts using fts5(
    message, content = 'call_logs', content_rowid = 'seq',
    tokenize = 'unicode61 remove_diacritics 2'
  )`.execute(db)
  await sql`create trigger call_logs_fts_insert after insert on call_logs begin
    insert into call_logs_fts(rowid, message) values (new.seq, new.message);
  end`.execute(db)
  await sql`create trigger call_logs_fts_delete after delete on call_logs begin
    insert into call_logs_fts(call_logs_fts, rowid, message) values ('delete', old.seq, old.message);
  end`.execute(db)
  await sql`create trigger call_logs_fts_update after update of message on call_logs begin
    insert into call_logs_fts(call_logs_fts, rowid, message) values ('delete', old.seq, old.message);
    insert into call_logs_fts(rowid, message) values (new.seq, new.message);
  end`.execute(db)

  await table(db, 'transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => ref('tenants')(c.notNull()))
    .addColumn('squad_id', 'text', ref('squads', 'set null'))
    .addColumn('conversation_id', 'text', (c) => ref('conversations')(c.notNull()))
    .addColumn('from_agent_id', 'text', (c) => ref('agents')(c.notNull()))
    .addColumn('to_agent_id', 'text', (c) => ref('agents')(c.notNull()))
    .addColumn(
      'reason',
      'text',
      oneOf('reason', ['language', 'escalation', 'skill', 'overflow', 'customer_request', 'after_hours']),
    )
    .addColumn('outcome', 'text', oneOf('outcome', ['success', 'failed']))
    .addColumn('latency_ms', 'integer', (c) => c.notNull().check(sql`latency_ms >= 0`))
    .addColumn('requested_at', 'text', (c) => c.notNull())
    .addCheckConstraint('transfers_distinct_agents', sql`from_agent_id <> to_agent_id`)
    .execute()
  await db.schema.createIndex('transfers_squad_requested').on('transfers').columns(['squad_id', 'requested_at']).execute()
  await db.schema.createIndex('transfers_conversation').on('transfers').column('conversation_id').execute()
  await db.schema.createIndex('transfers_from_agent').on('transfers').column('from_agent_id').execute()
  await db.schema.createIndex('transfers_to_agent').on('transfers').column('to_agent_id').execute()

  await table(db, 'provider_credentials')
    .addColumn('provider_kind', 'text', oneOf('provider_kind', ['llm', 'stt', 'tts']))
    .addColumn('provider', 'text', lengthBetween('provider', 1, 100))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_credentials_pk', ['provider_kind', 'provider'])
    .execute()

  await table(db, 'api_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', lengthBetween('name', 1, 100))
    .addColumn('token_hash', 'text', (c) =>
      c.notNull().unique().check(sql`length(token_hash) = 64`),
    )
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('role', 'text', oneOf('role', ['admin', 'viewer', 'tenant']))
    .addColumn('tenant_id', 'text', ref('tenants'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .addCheckConstraint('api_tokens_tenant_scope', sql`(role = 'tenant') = (tenant_id is not null)`)
    .execute()

  await table(db, 'settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull().check(sql`json_valid(value)`))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()
}

async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'settings',
    'api_tokens',
    'provider_credentials',
    'transfers',
    'call_logs_fts',
    'call_logs',
    'calls',
    'sip_inbound_trunks',
    'messages',
    'conversations',
    'squad_members',
    'squads',
    'agents',
    'tenants',
  ]) {
    await db.schema.dropTable(table).ifExists().execute()
  }
}

export const initial: Migration = { up, down }
