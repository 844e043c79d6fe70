import type { DatabaseHandle } from '../../src-main/db/connection'

/** Minimal valid rows, with fixed ids, for tests that insert by hand. */
export const IDS = {
  tenant: '11111111-1111-4111-8111-111111111111',
  otherTenant: '22222222-2222-4222-8222-222222222222',
  agent: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  agent2: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  squad: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  conversation: 'dddddddd-dddd-4ddd-8ddd-dddddddddddd',
  call: 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee',
}
const T = '2026-11-01T10:00:00.000Z'

export const rows = {
  tenant: (o: Record<string, unknown> = {}) => ({ id: IDS.tenant, name: 'Acme', billing_plan: 'growth', created_at: T, updated_at: T, ...o }),
  agent: (o: Record<string, unknown> = {}) => ({
    id: IDS.agent, tenant_id: IDS.tenant, name: 'Aria', languages: '["en"]', primary_language: 'en',
    llm_provider: 'openai', llm_model: 'gpt-4.1-mini', stt_provider: 'deepgram', stt_model: 'nova-3',
    tts_provider: 'elevenlabs', tts_model: 'eleven_flash_v2_5', created_at: T, updated_at: T, ...o,
  }),
  squad: (o: Record<string, unknown> = {}) => ({ id: IDS.squad, tenant_id: IDS.tenant, name: 'Desk', routing_strategy: 'round_robin', created_at: T, updated_at: T, ...o }),
  squadMember: (o: Record<string, unknown> = {}) => ({ squad_id: IDS.squad, agent_id: IDS.agent, joined_at: T, ...o }),
  conversation: (o: Record<string, unknown> = {}) => ({
    id: IDS.conversation, tenant_id: IDS.tenant, agent_id: IDS.agent, channel: 'voice', language: 'en', status: 'completed', created_at: T, updated_at: T, ...o,
  }),
  message: (o: Record<string, unknown> = {}) => ({ id: 'm1', conversation_id: IDS.conversation, position: 0, role: 'user', content: 'hi', created_at: T, ...o }),
  call: (o: Record<string, unknown> = {}) => ({
    id: IDS.call, tenant_id: IDS.tenant, direction: 'inbound', from_number: '+15550100', to_number: '+15550199', status: 'completed', started_at: T, ...o,
  }),
  callLog: (o: Record<string, unknown> = {}) => ({
    id: 'ffffffff-ffff-4fff-8fff-ffffffffffff', tenant_id: IDS.tenant, log_type: 'call', log_level: 'info', message: 'Call started', timestamp: T, ...o,
  }),
  transfer: (o: Record<string, unknown> = {}) => ({
    id: 't1', tenant_id: IDS.tenant, squad_id: IDS.squad, conversation_id: IDS.conversation, from_agent_id: IDS.agent, to_agent_id: IDS.agent2,
    reason: 'language', outcome: 'success', latency_ms: 1200, requested_at: T, ...o,
  }),
  trunk: (o: Record<string, unknown> = {}) => ({ sip_trunk_id: 'ST_test', name: 'Main', created_at: T, updated_at: T, ...o }),
  token: (o: Record<string, unknown> = {}) => ({ id: 'k1', name: 'ci', token_hash: 'a'.repeat(64), token_prefix: 'cs_aaaaaaa', role: 'admin', created_at: T, ...o }),
  credential: (o: Record<string, unknown> = {}) => ({ provider_kind: 'stt', provider: 'deepgram', secret: 'x', key_hint: 'ab…cd', created_at: T, updated_at: T, ...o }),
  setting: (o: Record<string, unknown> = {}) => ({ key: 'http.port', value: '8787', updated_at: T, ...o }),
}

export function insert(handle: Pick<DatabaseHandle, 'sqlite'>, table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row)
  handle.sqlite
    .prepare(`insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${columns.map(() => '?').join(', ')})`)
    .run(...columns.map((c) => row[c]))
}

/** A tenant with two agents, a squad and a conversation: the parents most rows need. */
export function insertParents(handle: DatabaseHandle): void {
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo' }))
  insert(handle, 'squads', rows.squad())
  insert(handle, 'conversations', rows.conversation())
}

/** A SIP inbound trunk row with every column set (the `trunk` row above sets only the required ones). */
export const fullTrunk = (o: Record<string, unknown> = {}) =>
  rows.trunk({
    tenant_id: IDS.tenant,
    numbers: '["+15550100","+15550101"]',
    allowed_addresses: '["203.0.113.0/28"]',
    allowed_numbers: '[]',
    auth_username: 'acme-trunk',
    auth_password_set: 1,
    metadata: '{"carrier":"Telnyx"}',
    krisp_enabled: 1,
    ...o,
  })
