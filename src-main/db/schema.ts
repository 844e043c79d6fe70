import type { PULLED_KINDS } from '../../src-shared/schemas/pull'
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely'

/**
 * Kysely table interfaces. Booleans are stored as 0/1 integers, timestamps as ISO 8601 UTC text
 * with milliseconds (`2026-11-22T10:00:00.000Z`, so text order is time order) and JSON as text.
 */

/** 0 or 1. */
type Flag = number
/** JSON text. */
type Json = string
/** A column with a database default: optional on insert. */
type Defaulted<T> = ColumnType<T, T | undefined, T>

export interface TenantsTable {
  id: string
  name: string
  billing_plan: string
  status: Defaulted<string>
  sip_enabled: Defaulted<Flag>
  recording_enabled: Defaulted<Flag>
  analytics_enabled: Defaulted<Flag>
  max_concurrent_calls: Defaulted<number>
  monthly_call_limit: Defaulted<number>
  monthly_usage_cents: Defaulted<number>
  meta_data: Json | null
  sip_domain: string | null
  sip_username: string | null
  hipaa_enabled: Defaulted<Flag>
  pci_enabled: Defaulted<Flag>
  recording_format: Defaulted<string>
  retention_days: Defaulted<number>
  data_encryption_enabled: Defaulted<Flag>
  webhook_url: string | null
  webhook_timeout_seconds: Defaulted<number>
  created_at: string
  updated_at: string
  /** The pull that last wrote the tenant (pulls.id); null for local and seeded tenants. */
  pull_id: Defaulted<string | null>
}

export interface AgentsTable {
  id: string
  tenant_id: string
  name: string
  description: string | null
  /** JSON array of BCP 47 language tags. */
  languages: Json
  primary_language: string
  llm_provider: string
  llm_model: string
  stt_provider: string
  stt_model: string
  tts_provider: string
  tts_model: string
  voice_id: string | null
  status: Defaulted<string>
  created_at: string
  updated_at: string
}

export interface SquadsTable {
  id: string
  tenant_id: string
  name: string
  description: string | null
  routing_strategy: string
  created_at: string
  updated_at: string
}

export interface SquadMembersTable {
  squad_id: string
  agent_id: string
  role: Defaulted<string>
  priority: Defaulted<number>
  /** JSON array of skill names. */
  skills: Defaulted<Json>
  joined_at: string
}

export interface ConversationsTable {
  id: string
  tenant_id: string
  agent_id: string
  squad_id: string | null
  channel: string
  language: string
  status: string
  /** Strategy that routed this session to its agent, when it came through a squad. */
  routing_strategy: string | null
  /** Time the caller waited before an agent picked up. */
  wait_ms: number | null
  resolved: Flag | null
  /** The end user (caller number or chat user id). */
  user_id: string | null
  created_at: string
  updated_at: string
  ended_at: string | null
}

export interface MessagesTable {
  id: string
  conversation_id: string
  position: number
  role: string
  content: string
  language: string | null
  tool_name: string | null
  tool_call_id: string | null
  tool_arguments: Json | null
  tool_result: Json | null
  latency_ms: number | null
  created_at: string
}

export interface CallsTable {
  id: string
  tenant_id: string
  agent_id: string | null
  conversation_id: string | null
  sip_trunk_id: string | null
  direction: string
  from_number: string
  to_number: string
  status: string
  end_reason: string | null
  started_at: string
  answered_at: string | null
  ended_at: string | null
  duration_ms: number | null
}

export interface CallLogsTable {
  /** Insertion order; the tie-break of timestamp order and the FTS5 rowid. */
  seq: Generated<number>
  id: string
  tenant_id: string
  log_type: string
  log_level: string
  message: string
  timestamp: string
  agent_id: string | null
  session_id: string | null
  call_id: string | null
  details: Defaulted<Json>
  user_id: string | null
  trace_id: string | null
  request_id: string | null
  /** The import that brought the record in (imports.id); null otherwise. */
  import_id: Defaulted<string | null>
  /** The pull that fetched it (pulls.id); null otherwise. */
  pull_id: Defaulted<string | null>
  /** The level as the record spelled it (`WARN`, `fatal`, `40`), when not log_level itself. */
  log_level_original: Defaulted<string | null>
  /** Where the line came from: '' Callscope's own (seeded, created, imported), else the pulled backend's base URL (0018). */
  source: Defaulted<string>
}

export interface ImportsTable {
  id: string
  kind: 'call_logs'
  /** The file name (or "upload: name" for the console), as the user gave it. */
  source: string
  format: 'ndjson' | 'json' | 'csv'
  status: 'running' | 'completed' | 'failed' | 'interrupted'
  /** The importing process, to tell a crashed import from a running one. */
  pid: number | null
  started_at: string
  updated_at: string
  finished_at: string | null
  bytes_total: number | null
  bytes_read: Defaulted<number>
  records_read: Defaulted<number>
  inserted: Defaulted<number>
  duplicates: Defaulted<number>
  invalid: Defaulted<number>
  /** JSON array of the first refused records: { record, line, reason }. */
  errors: Defaulted<string>
  failure: string | null
  duration_ms: number | null
  /** The source its call logs are stored under: '' Callscope's own, else a pulled backend's base URL (`callscope push`). */
  call_log_source: Defaulted<string>
}

export type PullStatus = 'running' | 'completed' | 'failed' | 'interrupted' | 'cancelled'

export interface PullsTable {
  id: string
  /** The remote's base URL, normalized (no trailing slash). The token is never stored. */
  source: string
  /** The tenant the pull was limited to, if any. */
  tenant_id: string | null
  /** The call log range asked for: since … until (the pull's start). */
  since: string
  until: string
  status: PullStatus
  pid: number | null
  started_at: string
  updated_at: string
  finished_at: string | null
  requests: Defaulted<number>
  retries: Defaulted<number>
  /** JSON object: per kind, what was fetched and stored (see pulls.service PullCounts). */
  counts: Defaulted<string>
  /** JSON array of the first problems met: { step, reason }. */
  errors: Defaulted<string>
  failure: string | null
  duration_ms: number | null
  /** 1 for a cycle of a continuous sync (pull_syncs), which the history lists apart. */
  sync: Defaulted<number>
  /** The failure's kind: the remote client's (auth, not_found, rejected, unavailable, garbage, cancelled) or 'store'. */
  failure_kind: string | null
}

export type PullSyncState = 'pulling' | 'waiting' | 'retrying' | 'stopped' | 'failed'

/** A source followed by a continuous sync, and how its last cycles went (migration 0011). */
export interface PullSyncsTable {
  source: string
  tenant_id: string | null
  since: string
  interval_ms: number
  /** pulling: a cycle runs; waiting: until next_cycle_at; retrying: backing off after a failed cycle; stopped; failed: cannot go on (e.g. the token was refused). */
  state: PullSyncState
  pid: number | null
  started_at: string
  updated_at: string
  last_cycle_at: string | null
  last_success_at: string | null
  next_cycle_at: string | null
  cycles: Defaulted<number>
  /** Failed cycles in a row (0 after a completed one). */
  failures: Defaulted<number>
  last_error: string | null
  last_pull_id: string | null
}

export interface PullCursorsTable {
  source: string
  key: string
  value: string
  updated_at: string
}

export type PulledKind = (typeof PULLED_KINDS)[number]

export interface PulledDocumentsTable {
  source: string
  kind: PulledKind
  key: string
  /** The remote's JSON, as it answered. */
  body: string
  fetched_at: string
  pull_id: string
}

/** An agent whose sessions listing a pull fetched (migration 0009). */
export interface PulledAgentsTable {
  /** The backend's normalized base URL (pulls.source). */
  source: string
  id: string
  /** The agent's tenant, as the call logs naming it said; null when unknown (admins only see it). */
  tenant_id: string | null
  fetched_at: string
  pull_id: string
}

/** One item of a pulled agent's sessions listing, as the remote answered it. */
export interface PulledSessionsTable {
  source: string
  agent_id: string
  /** Its place in the remote's listing (0 = first): the mirror's order, ties included. */
  position: number
  conversation_id: string
  created_at: string
  updated_at: string
  message_count: number
  last_message_preview: string
}

/** A squad's analytics as a pull fetched them, for the period pulled (migration 0010). */
export interface PulledSquadAnalyticsTable {
  source: string
  squad_id: string
  /** From the answer when it says (Callscope's shape does), for the console; else null. */
  squad_name: string | null
  tenant_id: string | null
  /** The period asked for: the pull's range. */
  period_start: string
  period_end: string
  /** The remote's JSON object, as it answered. */
  body: Json
  fetched_at: string
  pull_id: string
  /** The remote's answer to the same operation without dates (its default period, by its clock); null when none was fetched (0022). */
  default_body: Json | null
  /** When that answer came: the source's clock it was resolved by, to within the request's time. */
  default_fetched_at: string | null
}

/** One trunk of a pulled SIP trunk list, in the remote's order. */
export interface PulledSipTrunksTable {
  source: string
  position: number
  sip_trunk_id: string | null
  tenant_id: string | null
  /** The trunk's JSON object, as the remote listed it. */
  body: Json
  fetched_at: string
  pull_id: string
}

/** A language-model provider's details as a pull fetched them (GET /admin/providers/llm/{provider}). */
export interface PulledLlmProvidersTable {
  source: string
  provider: string
  /** The remote's JSON object, as it answered: its catalog, key status (masked) and agents. */
  body: Json
  fetched_at: string
  pull_id: string
}

export interface TransfersTable {
  id: string
  tenant_id: string
  squad_id: string | null
  conversation_id: string
  from_agent_id: string
  to_agent_id: string
  reason: string
  outcome: string
  /** Time from the transfer request until the receiving agent took over (or gave up). */
  latency_ms: number
  requested_at: string
}

export interface SipInboundTrunksTable {
  sip_trunk_id: string
  tenant_id: string | null
  name: string
  numbers: Defaulted<Json>
  allowed_addresses: Defaulted<Json>
  allowed_numbers: Defaulted<Json>
  auth_username: string | null
  /** Whether a password is configured; the password itself is never stored here. */
  auth_password_set: Defaulted<Flag>
  metadata: string | null
  krisp_enabled: Defaulted<Flag>
  source: Defaulted<string>
  created_at: string
  updated_at: string
}

export interface ProviderCredentialsTable {
  provider_kind: string
  provider: string
  /** Encrypted secret (format owned by the credentials module). */
  secret: string
  /** Masked hint such as `sk-…a1b2`, safe to show. */
  key_hint: string
  base_url: string | null
  created_at: string
  updated_at: string
}

export interface ApiTokensTable {
  id: string
  name: string
  /** SHA-256 of the token, hex. The token itself is never stored. */
  token_hash: string
  /** First characters of the token, to recognise it in listings. */
  token_prefix: string
  role: string
  tenant_id: string | null
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
  /** When the token stops working; null: never (migration 0007). */
  expires_at: string | null
  /** The one source the token reads ('' Callscope's own rows, a pulled backend's base URL); null: every source (0018). */
  source: Defaulted<string | null>
}

export interface SettingsTable {
  key: string
  /** JSON text. */
  value: Json
  updated_at: string
}

/** A pulled tenant profile, keyed by its backend (migration 0018). */
export interface PulledTenantsTable extends Omit<TenantsTable, 'pull_id'> {
  source: string
  fetched_at: string
  pull_id: string
}

/** The view of local tenants (source '') and pulled ones, for reads that name a tenant (0018). */
export interface TenantRowsView extends Omit<TenantsTable, 'pull_id'> {
  source: string
  pull_id: string | null
  /** When a pulled tenant was fetched; null for local ones. */
  fetched_at: string | null
}

/** A tenant's webhook signing secret, sealed (migration 0016). */
export interface WebhookSecretsTable {
  tenant_id: string
  /** Sealed by the store's secret box; never returned. */
  secret: string
  /** `whsec_…AbCd`, safe to show. */
  hint: string
  created_at: string
}

/** One test-send or replay of an event to a URL, over its attempts (migration 0016). */
export interface WebhookDeliveriesTable {
  id: string
  tenant_id: string
  event_type: string
  /** The webhook-id header, the same on every attempt. */
  webhook_id: string
  call_id: string | null
  url: string
  /** The signed body (JSON text). */
  payload: string
  source: 'stored' | 'example'
  /** Interrupted is not stored: it is a pending or retrying row whose pid is gone. */
  status: 'pending' | 'retrying' | 'succeeded' | 'failed'
  attempt_count: Defaulted<number>
  max_attempts: number
  next_attempt_at: string | null
  last_status: number | null
  last_error_kind: string | null
  pid: number | null
  created_at: string
  updated_at: string
  finished_at: string | null
  replay_of: string | null
}

export interface WebhookAttemptsTable {
  delivery_id: string
  number: number
  started_at: string
  url: string
  address: string | null
  /** JSON object of the headers sent. */
  request_headers: string
  response_status: number | null
  response_headers: string | null
  response_excerpt: string | null
  response_truncated: Defaulted<Flag>
  latency_ms: number
  error_kind: string | null
  error_message: string | null
  succeeded: Flag
  next_retry_at: string | null
}

/** An event received on POST /webhooks/inbox/{tenant_id}, accepted or rejected (migration 0016). */
export interface WebhookInboxTable {
  id: string
  tenant_id: string
  status: 'accepted' | 'rejected'
  reason: string | null
  webhook_id: string | null
  event_type: string | null
  call_id: string | null
  signed_at: string | null
  received_at: string
  /** JSON object of the webhook-relevant request headers. */
  headers: string
  body: string
  body_truncated: Defaulted<Flag>
  remote_address: string | null
}

export interface Database {
  tenants: TenantsTable
  agents: AgentsTable
  squads: SquadsTable
  squad_members: SquadMembersTable
  conversations: ConversationsTable
  messages: MessagesTable
  calls: CallsTable
  call_logs: CallLogsTable
  imports: ImportsTable
  pulls: PullsTable
  pull_syncs: PullSyncsTable
  pull_cursors: PullCursorsTable
  pulled_documents: PulledDocumentsTable
  pulled_agents: PulledAgentsTable
  pulled_sessions: PulledSessionsTable
  pulled_squad_analytics: PulledSquadAnalyticsTable
  pulled_sip_trunks: PulledSipTrunksTable
  pulled_llm_providers: PulledLlmProvidersTable
  transfers: TransfersTable
  sip_inbound_trunks: SipInboundTrunksTable
  provider_credentials: ProviderCredentialsTable
  api_tokens: ApiTokensTable
  settings: SettingsTable
  pulled_tenants: PulledTenantsTable
  tenant_rows: TenantRowsView
  webhook_secrets: WebhookSecretsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  webhook_inbox: WebhookInboxTable
  saved_views: SavedViewsTable
  call_log_bulk_loads: CallLogBulkLoadsTable
  call_log_day_counts: CallLogDayCountsTable
}

/**
 * PostgreSQL store only (pg-migrations/0004): call log lines per UTC day and (source, tenant,
 * agent, level, type), kept by a trigger on call_logs. `day` is YYYY-MM-DD.
 */
export interface CallLogDayCountsTable {
  day: string
  source: string
  tenant_id: string
  agent_id: string | null
  log_level: string
  log_type: string
  lines: number
}

/** A bulk load of call logs under way with the table's indexes dropped (migration 0020); `objects` is JSON: their definitions. */
export interface CallLogBulkLoadsTable {
  id: string
  pid: number
  started_at: string
  objects: string
  indexed_seq: number
}

/** A saved view of the log explorer (migration 0015); `state` is JSON text (src-shared/explorer-state.ts). */
export interface SavedViewsTable {
  id: string
  name: string
  description: string | null
  state: string
  created_at: string
  updated_at: string
}
export type SavedViewRow = Selectable<SavedViewsTable>

export type TenantRow = Selectable<TenantsTable>
export type NewTenant = Insertable<TenantsTable>
export type AgentRow = Selectable<AgentsTable>
export type CallLogRow = Selectable<CallLogsTable>
export type NewCallLog = Insertable<CallLogsTable>
export type ApiTokenRow = Selectable<ApiTokensTable>
