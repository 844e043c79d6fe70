import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../db/connection'
import { SeedError, seedDatabase } from './index'
import { SEED_SCALES } from './scales'

const ANCHOR = Date.parse('2026-11-20T12:00:00.000Z')
const TABLES = ['tenants', 'agents', 'squads', 'squad_members', 'sip_inbound_trunks', 'conversations', 'messages', 'calls', 'transfers', 'call_logs']

function digest(handle: DatabaseHandle): Record<string, string> {
  return Object.fromEntries(
    TABLES.map((table) => {
      const hash = createHash('sha256')
      for (const row of handle.sqlite.prepare(`select * from ${table} order by 1, 2`).iterate()) hash.update(JSON.stringify(row))
      return [table, hash.digest('hex')]
    }),
  )
}

async function seeded(seed: number): Promise<DatabaseHandle> {
  const handle = await migratedDb()
  seedDatabase(handle, { scale: 'small', seed, anchor: ANCHOR })
  return handle
}

let a: DatabaseHandle
const q = <T>(sql: string, ...params: unknown[]) => a.sqlite.prepare(sql).get(...params) as T
const all = <T>(sql: string, ...params: unknown[]) => a.sqlite.prepare(sql).all(...params) as T[]
const scalar = (sql: string) => a.sqlite.prepare(sql).pluck().get() as number

beforeAll(async () => {
  a = await seeded(7)
})
afterAll(async () => a.close())

describe('demo data generator', () => {
  it('is deterministic: the same seed and anchor give the same rows, another seed other rows', async () => {
    const b = await seeded(7)
    const c = await seeded(8)
    expect(digest(b)).toEqual(digest(a))
    const other = digest(c)
    for (const table of ['tenants', 'conversations', 'call_logs']) expect(other[table]).not.toBe(digest(a)[table])
    await b.close()
    await c.close()
  })

  it('writes the scale it was asked for', () => {
    const scale = SEED_SCALES.small
    expect(scalar('select count(*) from tenants')).toBe(scale.tenants)
    expect(scalar('select count(*) from agents')).toBe(scale.tenants * scale.agentsPerTenant)
    expect(scalar('select count(*) from call_logs')).toBeGreaterThanOrEqual(scale.targetLogs)
    expect(scalar('select count(*) from call_logs')).toBeLessThan(scale.targetLogs * 1.05)
  })

  it('is referentially sound', () => {
    expect(all('pragma foreign_key_check')).toEqual([])
    // Call logs have no foreign keys (imports may reference unknown records); seeded ones all resolve.
    expect(scalar('select count(*) from call_logs l left join agents a on a.id = l.agent_id where l.agent_id is not null and a.id is null')).toBe(0)
    expect(scalar('select count(*) from call_logs l left join conversations c on c.id = l.session_id where l.session_id is not null and c.id is null')).toBe(0)
    expect(scalar('select count(*) from call_logs l left join calls c on c.id = l.call_id where l.call_id is not null and c.id is null')).toBe(0)
    expect(scalar('select count(*) from call_logs l join agents a on a.id = l.agent_id where a.tenant_id <> l.tenant_id')).toBe(0)
    expect(scalar('select count(*) from call_logs l join calls c on c.id = l.call_id where c.conversation_id <> l.session_id')).toBe(0)
    expect(scalar('select count(*) from conversations c join agents a on a.id = c.agent_id where a.tenant_id <> c.tenant_id')).toBe(0)
    expect(scalar('select count(*) from conversations c join squad_members m on m.squad_id = c.squad_id and m.agent_id = c.agent_id')).toBe(
      scalar('select count(*) from conversations where squad_id is not null'),
    )
    expect(scalar('select count(*) from transfers t join squad_members m on m.squad_id = t.squad_id and m.agent_id = t.to_agent_id')).toBe(
      scalar('select count(*) from transfers'),
    )
    // One trace per call: a trace never spans two calls.
    expect(scalar('select count(*) from (select trace_id from call_logs where call_id is not null group by trace_id having count(distinct call_id) > 1)')).toBe(0)
  })

  it('keeps every timestamp inside the generated period and message positions contiguous', () => {
    const start = new Date(ANCHOR - SEED_SCALES.small.days * 86_400_000).toISOString()
    const end = new Date(ANCHOR).toISOString()
    expect(q<{ lo: string; hi: string }>('select min(timestamp) lo, max(timestamp) hi from call_logs where call_id is not null')).toSatisfy(
      ({ lo, hi }: { lo: string; hi: string }) => lo >= start && hi <= end,
    )
    expect(scalar(`select count(*) from conversations where created_at < '${start}' or updated_at > '${end}'`)).toBe(0)
    expect(scalar('select count(*) from (select conversation_id from messages group by conversation_id having max(position) + 1 <> count(*))')).toBe(0)
    expect(scalar("select count(*) from conversations where status = 'active' and ended_at is not null")).toBe(0)
  })

  it('speaks at least five languages, right-to-left Arabic included, with tool calls in the transcripts', () => {
    const languages = all<{ language: string }>('select distinct language from conversations').map((r) => r.language)
    expect(languages).toEqual(expect.arrayContaining(['en', 'es', 'hi', 'fr', 'ar']))
    const arabic = q<{ content: string }>("select content from messages where language = 'ar' and role = 'assistant' limit 1")
    expect(arabic.content).toMatch(/[\u0600-\u06FF]/)
    const hindi = q<{ content: string }>("select content from messages where language = 'hi' and role = 'user' limit 1")
    expect(hindi.content).toMatch(/[\u0900-\u097F]/)
    const toolCall = q<{ tool_name: string; tool_arguments: string }>("select tool_name, tool_arguments from messages where role = 'assistant' and tool_name is not null limit 1")
    expect(JSON.parse(toolCall.tool_arguments)).toBeTypeOf('object')
    // Every tool result answers a tool call of the same conversation, with the same call id.
    expect(scalar(`select count(*) from messages r where r.role = 'tool' and not exists (
      select 1 from messages c where c.conversation_id = r.conversation_id and c.tool_call_id = r.tool_call_id and c.role = 'assistant')`)).toBe(0)
    expect(all('select * from messages where content like \'%{%}%\' and role <> \'tool\' limit 1')).toEqual([])
  })

  it('varies tenants: plans, compliance settings and statuses differ', () => {
    expect(scalar('select count(distinct billing_plan) from tenants')).toBe(3)
    expect(scalar('select count(*) from tenants where hipaa_enabled = 1')).toBeGreaterThanOrEqual(1)
    expect(scalar('select count(*) from tenants where pci_enabled = 1')).toBeGreaterThanOrEqual(1)
    expect(scalar('select count(*) from tenants where monthly_usage_cents > 0')).toBeGreaterThanOrEqual(2)
  })

  it('tells a believable story: failed calls carry errors, and errors cluster on calls that went wrong', () => {
    expect(scalar(`select count(*) from calls c where c.status = 'failed'
      and not exists (select 1 from call_logs l where l.call_id = c.id and l.log_level in ('error', 'critical'))`)).toBe(0)
    const errorLines = scalar("select count(*) from call_logs where call_id is not null and log_level in ('error', 'critical')")
    const onTroubledCalls = scalar(`select count(*) from call_logs l join conversations s on s.id = l.session_id
      where l.log_level in ('error', 'critical') and (s.status in ('failed', 'transferred') or s.resolved = 0)`)
    expect(errorLines).toBeGreaterThan(0)
    expect(onTroubledCalls / errorLines).toBeGreaterThan(0.95)
    const errorRateOfCompleted = scalar(`select avg(l.log_level in ('error', 'critical')) from call_logs l
      join conversations s on s.id = l.session_id where s.status = 'completed' and s.resolved = 1`)
    expect(errorRateOfCompleted).toBeLessThan(0.005)
    // Each call opens with a call line and its lines follow one another in time.
    expect(scalar(`select count(*) from calls c where (select log_type from call_logs l where l.call_id = c.id order by timestamp, seq limit 1) <> 'call'`)).toBe(0)
  })

  it('keeps the full-text index in step with the messages', () => {
    a.sqlite.prepare("insert into call_logs_fts(call_logs_fts) values ('integrity-check')").run()
    const viaFts = scalar("select count(*) from call_logs_fts where call_logs_fts match 'transcript'")
    const viaLike = scalar("select count(*) from call_logs where message like '%transcript%'")
    expect(viaFts).toBeGreaterThan(0)
    expect(viaFts).toBe(viaLike)
  })

  it('refuses to seed over existing data unless asked to reset, and a reset keeps tokens', async () => {
    const handle = await seeded(3)
    expect(() => seedDatabase(handle, { scale: 'small', seed: 4, anchor: ANCHOR })).toThrow(SeedError)
    handle.sqlite.prepare("insert into api_tokens (id, name, token_hash, token_prefix, role, created_at) values ('k', 'ci', ?, 'cs_x', 'admin', 'now')").run('b'.repeat(64))
    const before = digest(handle)
    seedDatabase(handle, { scale: 'small', seed: 4, anchor: ANCHOR, reset: true })
    const fresh = await seeded(4)
    expect(digest(handle)).toEqual(digest(fresh))
    expect(digest(handle).tenants).not.toBe(before.tenants)
    expect(handle.sqlite.prepare('select count(*) from api_tokens').pluck().get()).toBe(1)
    handle.sqlite.prepare("insert into call_logs_fts(call_logs_fts) values ('integrity-check')").run()
    await handle.close()
    await fresh.close()
  })
})
