import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The PostgreSQL store's schema (issue 20): the SQLite schema as of migration 0018, designed for
 * PostgreSQL rather than translated. Frozen snapshot: value lists are written out here.
 *
 * - Text is `collate "C"`: it sorts by code point, as SQLite's BINARY collation does, whatever the
 *   database's locale, so every "order by name" answers in the same order on both stores (and
 *   b-tree indexes serve `like 'prefix%'`).
 * - Timestamps are timestamptz(3): instants at millisecond resolution, as the ISO 8601 text of the
 *   SQLite store; the pool reads them back as that same text (db/postgres/types.ts).
 * - Flags are boolean; JSON columns are `json`, not jsonb: jsonb reorders keys and rewrites
 *   spacing, and the API returns a record's details and a tenant's meta_data as they were written,
 *   byte for byte on both stores. What a query needs of them it reads with json operators (or a
 *   cast to jsonb inside an expression index, when a filter needs one).
 * - call_logs is partitioned by month of `timestamp` (callscope_call_log_partitions, below, creates
 *   them ahead of the writes that need them). A unique index of a partitioned table must hold the
 *   partition key, so the (id, source) uniqueness that deduplicates imports and pulls lives in
 *   call_log_ids, which every call log write fills in the same statement. `seq` comes from a
 *   sequence (identity columns on partitioned tables need PostgreSQL 17).
 * - Full-text search: a stored generated tsvector (`simple` configuration over unaccented text,
 *   as SQLite's unicode61 with remove_diacritics) with a GIN index; substring search: a pg_trgm GIN
 *   index on the message (SQLite: the call_logs_trigram FTS5 table).
 */

const TEXT = sql.raw('text collate "C"')
const TS = sql.raw('timestamptz(3)')

const STATEMENTS = [
  sql`create extension if not exists pg_trgm`,
  sql`create extension if not exists unaccent`,
  // unaccent() is stable (it reads its dictionary by name); a generated column needs an immutable
  // function, so the dictionary is named by its regdictionary here, the usual wrapper.
  sql`create function callscope_unaccent(text) returns text language sql immutable parallel safe strict
      as $$ select public.unaccent('public.unaccent'::regdictionary, $1) $$`,

  sql`create table tenants (
    id ${TEXT} primary key,
    name ${TEXT} not null check (char_length(name) between 1 and 255),
    billing_plan ${TEXT} not null check (char_length(billing_plan) between 1 and 100),
    status ${TEXT} not null default 'active' check (char_length(status) between 1 and 50),
    sip_enabled boolean not null default false,
    recording_enabled boolean not null default true,
    analytics_enabled boolean not null default true,
    max_concurrent_calls integer not null default 10 check (max_concurrent_calls between 1 and 1000),
    monthly_call_limit integer not null default 1000 check (monthly_call_limit >= 0),
    monthly_usage_cents bigint not null default 0 check (monthly_usage_cents >= 0),
    meta_data json check (meta_data is null or json_typeof(meta_data) = 'object'),
    sip_domain ${TEXT},
    sip_username ${TEXT},
    hipaa_enabled boolean not null default false,
    pci_enabled boolean not null default false,
    recording_format ${TEXT} not null default 'mp4' check (char_length(recording_format) between 1 and 20),
    retention_days integer not null default 90 check (retention_days >= 0),
    data_encryption_enabled boolean not null default true,
    webhook_url ${TEXT} check (webhook_url is null or webhook_url like 'http://%' or webhook_url like 'https://%'),
    webhook_timeout_seconds integer not null default 20 check (webhook_timeout_seconds >= 1),
    created_at ${TS} not null,
    updated_at ${TS} not null,
    pull_id ${TEXT}
  )`,
  sql`create index tenants_name on tenants (name)`,

  sql`create table agents (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null references tenants (id) on delete cascade,
    name ${TEXT} not null check (char_length(name) between 1 and 255),
    description ${TEXT},
    languages json not null default '[]' check (json_typeof(languages) = 'array'),
    primary_language ${TEXT} not null,
    llm_provider ${TEXT} not null,
    llm_model ${TEXT} not null,
    stt_provider ${TEXT} not null,
    stt_model ${TEXT} not null,
    tts_provider ${TEXT} not null,
    tts_model ${TEXT} not null,
    voice_id ${TEXT},
    status ${TEXT} not null default 'active' check (status in ('active', 'inactive', 'draft', 'archived')),
    created_at ${TS} not null,
    updated_at ${TS} not null
  )`,
  sql`create index agents_tenant on agents (tenant_id, name)`,
  sql`create index agents_llm_provider on agents (llm_provider)`,
  sql`create index agents_stt_provider on agents (stt_provider)`,

  sql`create table squads (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null references tenants (id) on delete cascade,
    name ${TEXT} not null check (char_length(name) between 1 and 255),
    description ${TEXT},
    routing_strategy ${TEXT} not null check (routing_strategy in ('round_robin', 'least_busy', 'skills_based', 'language_match', 'priority')),
    created_at ${TS} not null,
    updated_at ${TS} not null
  )`,
  sql`create index squads_tenant on squads (tenant_id)`,

  sql`create table squad_members (
    squad_id ${TEXT} not null references squads (id) on delete cascade,
    agent_id ${TEXT} not null references agents (id) on delete cascade,
    role ${TEXT} not null default 'member' check (role in ('lead', 'member', 'overflow')),
    priority integer not null default 0 check (priority >= 0),
    skills json not null default '[]' check (json_typeof(skills) = 'array'),
    joined_at ${TS} not null,
    constraint squad_members_pk primary key (squad_id, agent_id)
  )`,
  sql`create index squad_members_agent on squad_members (agent_id)`,

  sql`create table conversations (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null references tenants (id) on delete cascade,
    agent_id ${TEXT} not null references agents (id) on delete cascade,
    squad_id ${TEXT} references squads (id) on delete set null,
    channel ${TEXT} not null check (channel in ('voice', 'chat')),
    language ${TEXT} not null,
    status ${TEXT} not null check (status in ('active', 'completed', 'transferred', 'abandoned', 'failed')),
    routing_strategy ${TEXT} check (routing_strategy is null or routing_strategy in ('round_robin', 'least_busy', 'skills_based', 'language_match', 'priority')),
    wait_ms integer check (wait_ms is null or wait_ms >= 0),
    resolved boolean,
    user_id ${TEXT},
    created_at ${TS} not null,
    updated_at ${TS} not null,
    ended_at ${TS},
    constraint conversations_times check (updated_at >= created_at and (ended_at is null or ended_at >= created_at))
  )`,
  sql`create index conversations_agent_created on conversations (agent_id, created_at, id)`,
  sql`create index conversations_squad_created on conversations (squad_id, created_at)`,
  sql`create index conversations_tenant_created on conversations (tenant_id, created_at)`,
  // Squad analytics read sessions from this index alone (an index-only scan); handle time is
  // computed from the two instants it holds (SQLite stores a julianday expression instead).
  sql`create index conversations_squad_analytics on conversations (squad_id, created_at)
      include (agent_id, routing_strategy, channel, language, ended_at, wait_ms, resolved, status) where squad_id is not null`,

  sql`create table messages (
    id ${TEXT} primary key,
    conversation_id ${TEXT} not null references conversations (id) on delete cascade,
    position integer not null check (position >= 0),
    role ${TEXT} not null check (role in ('system', 'user', 'assistant', 'tool')),
    content ${TEXT} not null default '',
    language ${TEXT},
    tool_name ${TEXT},
    tool_call_id ${TEXT},
    tool_arguments json check (tool_arguments is null or json_typeof(tool_arguments) = 'object'),
    tool_result json,
    latency_ms integer check (latency_ms is null or latency_ms >= 0),
    created_at ${TS} not null,
    constraint messages_tool_call check ((tool_arguments is null and tool_result is null) or tool_name is not null),
    constraint messages_conversation_position unique (conversation_id, position)
  )`,

  sql`create table sip_inbound_trunks (
    sip_trunk_id ${TEXT} primary key,
    tenant_id ${TEXT} references tenants (id) on delete cascade,
    name ${TEXT} not null check (char_length(name) between 1 and 255),
    numbers json not null default '[]' check (json_typeof(numbers) = 'array'),
    allowed_addresses json not null default '[]' check (json_typeof(allowed_addresses) = 'array'),
    allowed_numbers json not null default '[]' check (json_typeof(allowed_numbers) = 'array'),
    auth_username ${TEXT},
    auth_password_set boolean not null default false,
    metadata ${TEXT},
    krisp_enabled boolean not null default false,
    source ${TEXT} not null default 'store' check (source in ('store', 'livekit')),
    created_at ${TS} not null,
    updated_at ${TS} not null
  )`,
  sql`create index sip_inbound_trunks_tenant on sip_inbound_trunks (tenant_id)`,

  sql`create table calls (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null references tenants (id) on delete cascade,
    agent_id ${TEXT} references agents (id) on delete set null,
    conversation_id ${TEXT} references conversations (id) on delete set null,
    sip_trunk_id ${TEXT} references sip_inbound_trunks (sip_trunk_id) on delete set null,
    direction ${TEXT} not null check (direction in ('inbound', 'outbound')),
    from_number ${TEXT} not null,
    to_number ${TEXT} not null,
    status ${TEXT} not null check (status in ('completed', 'failed', 'no_answer', 'busy', 'in_progress')),
    end_reason ${TEXT},
    started_at ${TS} not null,
    answered_at ${TS},
    ended_at ${TS},
    duration_ms bigint check (duration_ms is null or duration_ms >= 0),
    constraint calls_times check (ended_at is null or ended_at >= started_at)
  )`,
  sql`create index calls_tenant_started on calls (tenant_id, started_at)`,
  sql`create index calls_agent_started on calls (agent_id, started_at)`,
  sql`create index calls_conversation on calls (conversation_id)`,
  sql`create index calls_trunk on calls (sip_trunk_id)`,
  sql`create index calls_started on calls (started_at, id)`,
  sql`create index calls_status_started on calls (status, started_at, id)`,
  sql`create index calls_end_reason_started on calls (end_reason, started_at, id)`,
  sql`create index calls_direction_started on calls (direction, started_at, id)`,
  sql`create index calls_duration on calls (duration_ms, id)`,
  sql`create index calls_from_number on calls (from_number)`,
  sql`create index calls_to_number on calls (to_number)`,

  sql`create table transfers (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null references tenants (id) on delete cascade,
    squad_id ${TEXT} references squads (id) on delete set null,
    conversation_id ${TEXT} not null references conversations (id) on delete cascade,
    from_agent_id ${TEXT} not null references agents (id) on delete cascade,
    to_agent_id ${TEXT} not null references agents (id) on delete cascade,
    reason ${TEXT} not null check (reason in ('language', 'escalation', 'skill', 'overflow', 'customer_request', 'after_hours')),
    outcome ${TEXT} not null check (outcome in ('success', 'failed')),
    latency_ms integer not null check (latency_ms >= 0),
    requested_at ${TS} not null,
    constraint transfers_distinct_agents check (from_agent_id <> to_agent_id)
  )`,
  sql`create index transfers_squad_requested on transfers (squad_id, requested_at)`,
  sql`create index transfers_conversation on transfers (conversation_id)`,
  sql`create index transfers_from_agent on transfers (from_agent_id)`,
  sql`create index transfers_to_agent on transfers (to_agent_id)`,
  sql`create index transfers_squad_analytics on transfers (squad_id, requested_at)
      include (outcome, latency_ms, reason, from_agent_id, to_agent_id) where squad_id is not null`,

  sql`create table provider_credentials (
    provider_kind ${TEXT} not null check (provider_kind in ('llm', 'stt', 'tts')),
    provider ${TEXT} not null check (char_length(provider) between 1 and 100),
    secret ${TEXT} not null,
    key_hint ${TEXT} not null,
    base_url ${TEXT},
    created_at ${TS} not null,
    updated_at ${TS} not null,
    constraint provider_credentials_pk primary key (provider_kind, provider)
  )`,

  sql`create table settings (
    key ${TEXT} primary key,
    value json not null,
    updated_at ${TS} not null
  )`,

  sql`create table imports (
    id ${TEXT} primary key,
    kind ${TEXT} not null check (kind in ('call_logs')),
    source ${TEXT} not null,
    format ${TEXT} not null check (format in ('ndjson', 'json', 'csv')),
    status ${TEXT} not null check (status in ('running', 'completed', 'failed', 'interrupted')),
    pid integer,
    started_at ${TS} not null,
    updated_at ${TS} not null,
    finished_at ${TS},
    bytes_total bigint,
    bytes_read bigint not null default 0,
    records_read bigint not null default 0,
    inserted bigint not null default 0,
    duplicates bigint not null default 0,
    invalid bigint not null default 0,
    errors json not null default '[]' check (json_typeof(errors) = 'array'),
    failure ${TEXT},
    duration_ms bigint
  )`,
  sql`create index imports_started on imports (started_at)`,

  sql`create table pulls (
    id ${TEXT} primary key,
    source ${TEXT} not null,
    tenant_id ${TEXT},
    since ${TS} not null,
    until ${TS} not null,
    status ${TEXT} not null check (status in ('running', 'completed', 'failed', 'interrupted', 'cancelled')),
    pid integer,
    started_at ${TS} not null,
    updated_at ${TS} not null,
    finished_at ${TS},
    requests integer not null default 0,
    retries integer not null default 0,
    counts json not null default '{}' check (json_typeof(counts) = 'object'),
    errors json not null default '[]' check (json_typeof(errors) = 'array'),
    failure ${TEXT},
    duration_ms bigint,
    sync boolean not null default false,
    failure_kind ${TEXT}
  )`,
  sql`create index pulls_source_started on pulls (source, started_at)`,
  sql`create index pulls_started on pulls (started_at)`,
  sql`create index pulls_sync_started on pulls (sync, started_at)`,

  sql`create table pull_syncs (
    source ${TEXT} primary key,
    tenant_id ${TEXT},
    since ${TS} not null,
    interval_ms bigint not null check (interval_ms > 0),
    state ${TEXT} not null check (state in ('pulling', 'waiting', 'retrying', 'stopped', 'failed')),
    pid integer,
    started_at ${TS} not null,
    updated_at ${TS} not null,
    last_cycle_at ${TS},
    last_success_at ${TS},
    next_cycle_at ${TS},
    cycles integer not null default 0,
    failures integer not null default 0,
    last_error ${TEXT},
    last_pull_id ${TEXT}
  )`,

  sql`create table pull_cursors (
    source ${TEXT} not null,
    key ${TEXT} not null,
    value ${TEXT} not null,
    updated_at ${TS} not null,
    constraint pull_cursors_pk primary key (source, key)
  )`,

  sql`create table pulled_documents (
    source ${TEXT} not null,
    kind ${TEXT} not null check (kind in ('session', 'squad_analytics', 'sip_trunks')),
    key ${TEXT} not null,
    body json not null,
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_documents_pk primary key (source, kind, key)
  )`,
  sql`create index pulled_documents_kind on pulled_documents (kind, source)`,

  sql`create table pulled_agents (
    source ${TEXT} not null,
    id ${TEXT} not null check (char_length(id) between 1 and 255),
    tenant_id ${TEXT},
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_agents_pk primary key (source, id)
  )`,
  sql`create index pulled_agents_id on pulled_agents (id, fetched_at)`,

  sql`create table pulled_sessions (
    source ${TEXT} not null,
    agent_id ${TEXT} not null,
    position integer not null check (position >= 0),
    conversation_id ${TEXT} not null,
    created_at ${TEXT} not null,
    updated_at ${TEXT} not null,
    message_count bigint not null,
    last_message_preview ${TEXT} not null,
    constraint pulled_sessions_pk primary key (source, agent_id, position)
  )`,

  sql`create table pulled_squad_analytics (
    source ${TEXT} not null,
    squad_id ${TEXT} not null check (char_length(squad_id) between 1 and 255),
    squad_name ${TEXT},
    tenant_id ${TEXT},
    period_start ${TS} not null,
    period_end ${TS} not null,
    body json not null check (json_typeof(body) = 'object'),
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_squad_analytics_pk primary key (source, squad_id)
  )`,
  sql`create index pulled_squad_analytics_squad on pulled_squad_analytics (squad_id, fetched_at)`,

  sql`create table pulled_sip_trunks (
    source ${TEXT} not null,
    position integer not null check (position >= 0),
    sip_trunk_id ${TEXT},
    tenant_id ${TEXT},
    body json not null check (json_typeof(body) = 'object'),
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_sip_trunks_pk primary key (source, position)
  )`,

  sql`create table pulled_llm_providers (
    source ${TEXT} not null,
    provider ${TEXT} not null check (char_length(provider) between 1 and 255),
    body json not null check (json_typeof(body) = 'object'),
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_llm_providers_pk primary key (source, provider)
  )`,
  sql`create index pulled_llm_providers_provider on pulled_llm_providers (provider, fetched_at)`,

  sql`create table pulled_tenants (
    source ${TEXT} not null check (char_length(source) between 1 and 2048),
    id ${TEXT} not null check (char_length(id) between 1 and 255),
    name ${TEXT} not null check (char_length(name) between 1 and 255),
    billing_plan ${TEXT} not null check (char_length(billing_plan) between 1 and 100),
    status ${TEXT} not null check (char_length(status) between 1 and 50),
    sip_enabled boolean not null default false,
    recording_enabled boolean not null default true,
    analytics_enabled boolean not null default true,
    max_concurrent_calls integer not null,
    monthly_call_limit integer not null,
    monthly_usage_cents bigint not null,
    meta_data json check (meta_data is null or json_typeof(meta_data) = 'object'),
    sip_domain ${TEXT},
    sip_username ${TEXT},
    hipaa_enabled boolean not null default false,
    pci_enabled boolean not null default false,
    recording_format ${TEXT} not null check (char_length(recording_format) between 1 and 20),
    retention_days integer not null,
    data_encryption_enabled boolean not null default true,
    webhook_url ${TEXT},
    webhook_timeout_seconds integer not null,
    created_at ${TS} not null,
    updated_at ${TS} not null,
    fetched_at ${TS} not null,
    pull_id ${TEXT} not null,
    constraint pulled_tenants_pk primary key (source, id)
  )`,
  sql`create index pulled_tenants_name on pulled_tenants (name)`,
  sql`create view tenant_rows as
    select ''::text collate "C" as source, id, name, billing_plan, status, sip_enabled, recording_enabled, analytics_enabled,
      max_concurrent_calls, monthly_call_limit, monthly_usage_cents, meta_data, sip_domain, sip_username, hipaa_enabled,
      pci_enabled, recording_format, retention_days, data_encryption_enabled, webhook_url, webhook_timeout_seconds,
      created_at, updated_at, pull_id, null::timestamptz(3) as fetched_at
    from tenants
    union all
    select source, id, name, billing_plan, status, sip_enabled, recording_enabled, analytics_enabled,
      max_concurrent_calls, monthly_call_limit, monthly_usage_cents, meta_data, sip_domain, sip_username, hipaa_enabled,
      pci_enabled, recording_format, retention_days, data_encryption_enabled, webhook_url, webhook_timeout_seconds,
      created_at, updated_at, pull_id, fetched_at
    from pulled_tenants`,

  sql`create table api_tokens (
    id ${TEXT} primary key,
    name ${TEXT} not null check (char_length(name) between 1 and 100),
    token_hash ${TEXT} not null unique check (char_length(token_hash) = 64),
    token_prefix ${TEXT} not null,
    role ${TEXT} not null check (role in ('admin', 'viewer', 'tenant')),
    tenant_id ${TEXT},
    created_at ${TS} not null,
    last_used_at ${TS},
    revoked_at ${TS},
    expires_at ${TS} check (expires_at is null or expires_at > created_at),
    source ${TEXT},
    constraint api_tokens_tenant_scope check ((role = 'tenant') = (tenant_id is not null))
  )`,

  sql`create table saved_views (
    id ${TEXT} primary key,
    name ${TEXT} not null check (char_length(name) between 1 and 100),
    description ${TEXT} check (description is null or char_length(description) between 1 and 1000),
    state json not null check (json_typeof(state) = 'object'),
    created_at ${TS} not null,
    updated_at ${TS} not null
  )`,
  sql`create unique index saved_views_name on saved_views (lower(name))`,

  sql`create table webhook_secrets (
    tenant_id ${TEXT} primary key,
    secret ${TEXT} not null,
    hint ${TEXT} not null,
    created_at ${TS} not null
  )`,
  sql`create table webhook_deliveries (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null,
    event_type ${TEXT} not null,
    webhook_id ${TEXT} not null,
    call_id ${TEXT},
    url ${TEXT} not null check (url like 'http://%' or url like 'https://%'),
    payload json not null check (json_typeof(payload) = 'object'),
    source ${TEXT} not null check (source in ('stored', 'example')),
    status ${TEXT} not null check (status in ('pending', 'retrying', 'succeeded', 'failed')),
    attempt_count integer not null default 0,
    max_attempts integer not null check (max_attempts >= 1),
    next_attempt_at ${TS},
    last_status integer,
    last_error_kind ${TEXT},
    pid integer,
    created_at ${TS} not null,
    updated_at ${TS} not null,
    finished_at ${TS},
    replay_of ${TEXT}
  )`,
  sql`create index webhook_deliveries_tenant_created on webhook_deliveries (tenant_id, created_at, id)`,
  sql`create index webhook_deliveries_call on webhook_deliveries (call_id, created_at)`,
  sql`create table webhook_attempts (
    delivery_id ${TEXT} not null references webhook_deliveries (id) on delete cascade,
    number integer not null check (number >= 1),
    started_at ${TS} not null,
    url ${TEXT} not null,
    address ${TEXT},
    request_headers json not null check (json_typeof(request_headers) = 'object'),
    response_status integer,
    response_headers json check (response_headers is null or json_typeof(response_headers) = 'object'),
    response_excerpt ${TEXT},
    response_truncated boolean not null default false,
    latency_ms integer not null,
    error_kind ${TEXT},
    error_message ${TEXT},
    succeeded boolean not null,
    next_retry_at ${TS},
    constraint webhook_attempts_pk primary key (delivery_id, number)
  )`,
  sql`create table webhook_inbox (
    id ${TEXT} primary key,
    tenant_id ${TEXT} not null,
    status ${TEXT} not null check (status in ('accepted', 'rejected')),
    reason ${TEXT},
    webhook_id ${TEXT},
    event_type ${TEXT},
    call_id ${TEXT},
    signed_at ${TS},
    received_at ${TS} not null,
    headers json not null check (json_typeof(headers) = 'object'),
    body ${TEXT} not null,
    body_truncated boolean not null default false,
    remote_address ${TEXT}
  )`,
  sql`create unique index webhook_inbox_accepted_id on webhook_inbox (tenant_id, webhook_id) where status = 'accepted'`,
  sql`create index webhook_inbox_tenant_received on webhook_inbox (tenant_id, received_at, id)`,
  sql`create index webhook_inbox_call on webhook_inbox (call_id, received_at)`,

  // Call logs: partitioned by month, deduplicated through call_log_ids (see above).
  sql`create sequence call_logs_seq as bigint`,
  sql`create table call_logs (
    seq bigint not null default nextval('call_logs_seq'),
    id ${TEXT} not null,
    tenant_id ${TEXT} not null,
    log_type ${TEXT} not null check (char_length(log_type) between 1 and 100),
    log_level ${TEXT} not null check (log_level in ('debug', 'info', 'warning', 'error', 'critical')),
    message ${TEXT} not null,
    "timestamp" ${TS} not null,
    agent_id ${TEXT},
    session_id ${TEXT},
    call_id ${TEXT},
    details json not null default '{}' check (json_typeof(details) = 'object'),
    user_id ${TEXT},
    trace_id ${TEXT},
    request_id ${TEXT},
    import_id ${TEXT},
    pull_id ${TEXT},
    log_level_original ${TEXT} check (log_level_original is null or char_length(log_level_original) between 1 and 100),
    source ${TEXT} not null default '',
    message_search tsvector generated always as (to_tsvector('simple', callscope_unaccent(message))) stored,
    constraint call_logs_pk primary key (seq, "timestamp")
  ) partition by range ("timestamp")`,
  sql`alter sequence call_logs_seq owned by call_logs.seq`,
  sql`create table call_log_ids (
    id ${TEXT} not null,
    source ${TEXT} not null,
    constraint call_log_ids_pk primary key (id, source)
  )`,
  // seq rides along in each index, so newest-first reads the index backwards without a sort.
  sql`create index call_logs_timestamp on call_logs ("timestamp", seq)`,
  sql`create index call_logs_agent_timestamp on call_logs (agent_id, "timestamp", seq)`,
  sql`create index call_logs_tenant_timestamp on call_logs (tenant_id, "timestamp", seq)`,
  sql`create index call_logs_level_timestamp on call_logs (log_level, "timestamp", seq)`,
  sql`create index call_logs_type_timestamp on call_logs (log_type, "timestamp", seq)`,
  sql`create index call_logs_call on call_logs (call_id)`,
  sql`create index call_logs_trace on call_logs (trace_id)`,
  sql`create index call_logs_session on call_logs (session_id)`,
  sql`create index call_logs_user on call_logs (user_id)`,
  sql`create index call_logs_request on call_logs (request_id)`,
  sql`create index call_logs_id on call_logs (id, source)`,
  sql`create index call_logs_message_search on call_logs using gin (message_search)`,
  sql`create index call_logs_message_trigram on call_logs using gin (message gin_trgm_ops)`,
  // One partition per UTC month, named call_logs_YYYY_MM, created when a write (or the store's
  // start) needs it. Two writers may ask at once: the advisory lock makes the second wait and find it.
  sql`create function callscope_call_log_partitions(first_instant timestamptz, last_instant timestamptz) returns integer
    language plpgsql as $$
    declare
      month timestamptz := date_trunc('month', first_instant at time zone 'UTC') at time zone 'UTC';
      created integer := 0;
      name text;
    begin
      perform pg_advisory_xact_lock(hashtext('callscope_call_log_partitions'));
      while month <= last_instant loop
        name := 'call_logs_' || to_char(month at time zone 'UTC', 'YYYY_MM');
        if to_regclass(name) is null then
          execute format('create table %I partition of call_logs for values from (%L) to (%L)',
            name, month, (month at time zone 'UTC' + interval '1 month') at time zone 'UTC');
          created := created + 1;
        end if;
        month := (month at time zone 'UTC' + interval '1 month') at time zone 'UTC';
      end loop;
      return created;
    end $$`,
]

export const schema: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    for (const statement of STATEMENTS) await statement.execute(db)
  },
}
