import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { IDS, insert, insertParents, rows } from '../../test/helpers/rows'
import type { DatabaseHandle } from './connection'

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  insertParents(handle)
})
afterEach(async () => handle.close())

describe('tenant defaults', () => {
  it('are the spec defaults when a row gives only the required fields', () => {
    insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant }))
    const row = handle.sqlite.prepare('select * from tenants where id = ?').get(IDS.otherTenant)
    expect(row).toMatchObject({
      status: 'active',
      sip_enabled: 0,
      recording_enabled: 1,
      analytics_enabled: 1,
      max_concurrent_calls: 10,
      monthly_call_limit: 1000,
      monthly_usage_cents: 0,
      meta_data: null,
      hipaa_enabled: 0,
      pci_enabled: 0,
      recording_format: 'mp4',
      retention_days: 90,
      data_encryption_enabled: 1,
      webhook_url: null,
      webhook_timeout_seconds: 20,
    })
  })

  it('accept the limits themselves', () => {
    insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'x'.repeat(255), billing_plan: 'p'.repeat(100), max_concurrent_calls: 1000, monthly_call_limit: 0 }))
    insert(handle, 'tenants', rows.tenant({ id: '33333333-3333-4333-8333-333333333333', name: 'y', billing_plan: 'p', max_concurrent_calls: 1 }))
    expect(handle.sqlite.prepare('select count(*) from tenants').pluck().get()).toBe(3)
  })
})

type Case = [label: string, table: string, row: Record<string, unknown>, code: RegExp]
const CHECK = /SQLITE_CONSTRAINT_CHECK/
const NOTNULL = /SQLITE_CONSTRAINT_NOTNULL/
const FK = /SQLITE_CONSTRAINT_FOREIGNKEY/
const UNIQUE = /SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)/
const TYPE = /SQLITE_CONSTRAINT_DATATYPE/
const t2 = { id: IDS.otherTenant }

const cases: Case[] = [
  ['tenant name empty', 'tenants', rows.tenant({ ...t2, name: '' }), CHECK],
  ['tenant name of 256 characters', 'tenants', rows.tenant({ ...t2, name: 'x'.repeat(256) }), CHECK],
  ['tenant name missing', 'tenants', rows.tenant({ ...t2, name: null }), NOTNULL],
  ['tenant billing_plan empty', 'tenants', rows.tenant({ ...t2, billing_plan: '' }), CHECK],
  ['tenant billing_plan of 101 characters', 'tenants', rows.tenant({ ...t2, billing_plan: 'p'.repeat(101) }), CHECK],
  ['tenant max_concurrent_calls 0', 'tenants', rows.tenant({ ...t2, max_concurrent_calls: 0 }), CHECK],
  ['tenant max_concurrent_calls 1001', 'tenants', rows.tenant({ ...t2, max_concurrent_calls: 1001 }), CHECK],
  ['tenant max_concurrent_calls as text', 'tenants', rows.tenant({ ...t2, max_concurrent_calls: 'ten' }), TYPE],
  ['tenant monthly_call_limit -1', 'tenants', rows.tenant({ ...t2, monthly_call_limit: -1 }), CHECK],
  ['tenant monthly_usage_cents -1', 'tenants', rows.tenant({ ...t2, monthly_usage_cents: -1 }), CHECK],
  ['tenant flag 2', 'tenants', rows.tenant({ ...t2, hipaa_enabled: 2 }), CHECK],
  ['tenant meta_data that is an array', 'tenants', rows.tenant({ ...t2, meta_data: '[1]' }), CHECK],
  ['tenant meta_data that is not JSON', 'tenants', rows.tenant({ ...t2, meta_data: '{oops' }), CHECK],
  ['tenant webhook_url that is not http(s)', 'tenants', rows.tenant({ ...t2, webhook_url: 'ftp://x' }), CHECK],
  ['tenant webhook_timeout_seconds 0', 'tenants', rows.tenant({ ...t2, webhook_timeout_seconds: 0 }), CHECK],
  ['tenant retention_days -1', 'tenants', rows.tenant({ ...t2, retention_days: -1 }), CHECK],
  ['tenant with a duplicate id', 'tenants', rows.tenant(), UNIQUE],
  ['agent of a missing tenant', 'agents', rows.agent({ id: 'a3', tenant_id: IDS.otherTenant }), FK],
  ['agent languages not a JSON array', 'agents', rows.agent({ id: 'a3', languages: '"en"' }), CHECK],
  ['agent status unknown', 'agents', rows.agent({ id: 'a3', status: 'sleeping' }), CHECK],
  ['squad routing strategy unknown', 'squads', rows.squad({ id: 's2', routing_strategy: 'random' }), CHECK],
  ['squad member twice', 'squad_members', rows.squadMember(), UNIQUE],
  ['squad member with negative priority', 'squad_members', rows.squadMember({ agent_id: IDS.agent2, priority: -1 }), CHECK],
  ['conversation channel unknown', 'conversations', rows.conversation({ id: 'c2', channel: 'fax' }), CHECK],
  ['conversation status unknown', 'conversations', rows.conversation({ id: 'c2', status: 'lost' }), CHECK],
  ['conversation updated before created', 'conversations', rows.conversation({ id: 'c2', updated_at: '2026-10-01T00:00:00.000Z' }), CHECK],
  ['conversation of a missing agent', 'conversations', rows.conversation({ id: 'c2', agent_id: 'nobody' }), FK],
  ['message role unknown', 'messages', rows.message({ role: 'bot' }), CHECK],
  ['message with tool arguments but no tool name', 'messages', rows.message({ tool_arguments: '{}' }), CHECK],
  ['message of a missing conversation', 'messages', rows.message({ conversation_id: 'none' }), FK],
  ['call direction unknown', 'calls', rows.call({ direction: 'sideways' }), CHECK],
  ['call ending before it started', 'calls', rows.call({ ended_at: '2026-10-01T00:00:00.000Z' }), CHECK],
  ['call log level unknown', 'call_logs', rows.callLog({ log_level: 'fatal' }), CHECK],
  ['call log type that is empty', 'call_logs', rows.callLog({ log_type: '' }), CHECK],
  ['call log type over 100 characters', 'call_logs', rows.callLog({ log_type: 't'.repeat(101) }), CHECK],
  ['call log original level that is empty', 'call_logs', rows.callLog({ log_level_original: '' }), CHECK],
  ['call log details that are an array', 'call_logs', rows.callLog({ details: '[1]' }), CHECK],
  ['call log details that are not JSON', 'call_logs', rows.callLog({ details: '{' }), CHECK],
  ['call log without a message', 'call_logs', rows.callLog({ message: null }), NOTNULL],
  ['transfer to the same agent', 'transfers', rows.transfer({ to_agent_id: IDS.agent }), CHECK],
  ['transfer outcome unknown', 'transfers', rows.transfer({ outcome: 'maybe' }), CHECK],
  ['transfer reason unknown', 'transfers', rows.transfer({ reason: 'boredom' }), CHECK],
  ['transfer with negative latency', 'transfers', rows.transfer({ latency_ms: -5 }), CHECK],
  ['SIP trunk numbers not an array', 'sip_inbound_trunks', rows.trunk({ numbers: '"+1"' }), CHECK],
  ['SIP trunk source unknown', 'sip_inbound_trunks', rows.trunk({ source: 'fax' }), CHECK],
  ['API token role unknown', 'api_tokens', rows.token({ role: 'root' }), CHECK],
  ['tenant API token without a tenant', 'api_tokens', rows.token({ role: 'tenant' }), CHECK],
  ['admin API token scoped to a tenant', 'api_tokens', rows.token({ tenant_id: IDS.tenant }), CHECK],
  ['API token hash that is not SHA-256 hex length', 'api_tokens', rows.token({ token_hash: 'abc' }), CHECK],
  ['API token expiring when it is created', 'api_tokens', rows.token({ expires_at: '2026-11-01T10:00:00.000Z' }), CHECK],
  ['provider credential of an unknown kind', 'provider_credentials', rows.credential({ provider_kind: 'vision' }), CHECK],
  ['setting value that is not JSON', 'settings', rows.setting({ value: 'not json' }), CHECK],
]

describe('database constraints', () => {
  it.each(cases)('reject a %s', (_label, table, row, code) => {
    // The duplicate case needs its first copy; the others insert beside it without conflict.
    if (table === 'squad_members') insert(handle, 'squad_members', rows.squadMember())
    const count = () => handle.sqlite.prepare(`select count(*) from ${table}`).pluck().get()
    const before = count()
    let error: unknown
    try {
      insert(handle, table, row)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(Database.SqliteError)
    expect((error as { code: string }).code).toMatch(code)
    expect(count()).toBe(before)
  })

  it('reject a call log whose id already exists', () => {
    insert(handle, 'call_logs', rows.callLog())
    expect(() => insert(handle, 'call_logs', rows.callLog({ message: 'again' }))).toThrow(/UNIQUE/)
  })

  it('accept every valid row used above', () => {
    insert(handle, 'squad_members', rows.squadMember())
    insert(handle, 'messages', rows.message())
    insert(handle, 'calls', rows.call())
    insert(handle, 'call_logs', rows.callLog())
    insert(handle, 'transfers', rows.transfer())
    insert(handle, 'sip_inbound_trunks', rows.trunk())
    insert(handle, 'api_tokens', rows.token())
    insert(handle, 'api_tokens', rows.token({ id: 'k2', token_hash: 'b'.repeat(64), expires_at: '2026-11-01T10:00:00.001Z' }))
    insert(handle, 'provider_credentials', rows.credential())
    insert(handle, 'settings', rows.setting())
    expect(handle.sqlite.prepare('pragma foreign_key_check').all()).toEqual([])
  })
})
