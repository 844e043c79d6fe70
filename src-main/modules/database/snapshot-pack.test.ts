import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/helpers/temp-dir'
import { type DatabaseHandle, openDatabase } from '../../db/connection'
import { migrateToLatest } from '../../db/migrate'
import { writeSnapshot } from './snapshot-pack'

const T = '2026-11-20T10:00:00.000Z'
const ids = { tenant: '10000000-0000-4000-8000-000000000001', agent: '20000000-0000-4000-8000-000000000001', conversation: '30000000-0000-4000-8000-000000000001' }
const ORIGIN = 'https://backend.acme-internal.example:8443'
const TOKEN_HASH = 'ab'.repeat(32)
const CALLER = '+34612345678'
const EMAIL = 'carmen.jimenez@mail.example'
const USER = 'usr_k3J9aPq0Zx'

/** A small store with one of everything a pack treats specially. */
function fill(sqlite: BetterSqlite3.Database): void {
  const run = (sql: string, ...values: unknown[]) => sqlite.prepare(sql).run(...values)
  run(`insert into tenants (id, name, billing_plan, meta_data, created_at, updated_at) values (?, 'Northwind Health', 'pro', ?, ?, ?)`, ids.tenant, '{"account_manager":"Daniel Moore","seats":12345678901234567890}', T, T)
  run(`insert into agents (id, tenant_id, name, languages, primary_language, llm_provider, llm_model, stt_provider, stt_model, tts_provider, tts_model, created_at, updated_at)
       values (?, ?, 'Aria · Reception', '["en"]', 'en', 'openai', 'gpt', 'deepgram', 'nova', 'cartesia', 'sonic', ?, ?)`, ids.agent, ids.tenant, T, T)
  run(`insert into conversations (id, tenant_id, agent_id, channel, language, status, user_id, created_at, updated_at) values (?, ?, ?, 'voice', 'en', 'completed', ?, ?, ?)`, ids.conversation, ids.tenant, ids.agent, USER, T, T)
  const say = (position: number, role: string, content: string) =>
    run(`insert into messages (id, conversation_id, position, role, content, created_at) values (?, ?, ?, ?, ?, ?)`, `m${position}`, ids.conversation, position, role, content, T)
  say(0, 'assistant', 'Hi, this is Aria from Northwind Health.')
  say(1, 'user', `Hello, my name is Carmen Jiménez, reach me at ${EMAIL}.`)
  say(2, 'assistant', 'Thanks, Carmen Jiménez. Daniel Moore will call you back.')
  run(`insert into calls (id, tenant_id, agent_id, conversation_id, direction, from_number, to_number, status, started_at) values ('c1', ?, ?, ?, 'inbound', ?, '+15550100', 'completed', ?)`, ids.tenant, ids.agent, ids.conversation, CALLER, T)
  const log = (seq: number, message: string, details: object) =>
    run(`insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp, details, user_id) values (?, ?, 'call', 'info', ?, ?, ?, ?)`, `l${seq}`, ids.tenant, message, T, JSON.stringify(details), USER)
  log(1, `Inbound call from ${CALLER} for webrtc:${USER}`, { from: CALLER, user: USER, amount: 1.5 })
  log(2, 'Caller Carmen Jiménez confirmed', { email: EMAIL })
  run(`insert into api_tokens (id, name, token_hash, token_prefix, role, created_at) values ('t1', 'ci', ?, 'cs_abcd', 'admin', ?)`, TOKEN_HASH, T)
  run(`insert into provider_credentials (provider_kind, provider, secret, key_hint, created_at, updated_at) values ('stt', 'deepgram', 'aesgcm1:sealed-secret', '012…4567', ?, ?)`, T, T)
  run(`insert into webhook_secrets (tenant_id, secret, hint, created_at) values (?, 'aesgcm1:sealed-webhook-secret', 'whsec_…AbCd', ?)`, ids.tenant, T)
  run(`insert into webhook_inbox (id, tenant_id, status, webhook_id, event_type, received_at, headers, body) values ('e1', ?, 'accepted', 'msg_1', 'call.started', ?, '{}', ?)`,
    ids.tenant, T, JSON.stringify({ type: 'call.started', data: { from_number: CALLER } }))
  run(`insert into settings (key, value, updated_at) values ('livekit_api_secret', '"hunter2"', ?), ('theme', '"dark"', ?)`, T, T)
  run(`insert into pulls (id, source, since, until, status, started_at, updated_at, errors, failure) values ('p1', ?, ?, ?, 'failed', ?, ?, ?, ?)`,
    ORIGIN, T, T, T, T, JSON.stringify([{ step: 'sessions', reason: `GET ${ORIGIN}/agents answered 503` }]), 'backend.acme-internal.example:8443 went away')
  run(`insert into pull_cursors (source, key, value, updated_at) values (?, 'logs', '{}', ?)`, ORIGIN, T)
  run(`insert into pulled_documents (source, kind, key, body, fetched_at, pull_id) values (?, 'session', 'k', ?, ?, 'p1')`, ORIGIN, JSON.stringify({ user_id: USER, preview: 'my name is Carmen Jiménez' }), T)
  // A saved view quoting the caller: kept in every pack, scrubbed in a redacted one.
  run(`insert into saved_views (id, name, description, state, created_at, updated_at) values ('v1', ?, ?, ?, ?, ?)`,
    `Calls from ${CALLER}`, `Carmen Jiménez's complaint`, JSON.stringify({ query: `"${CALLER}" level:error`, from: 'now-7d', cols: ['time', 'message'] }), T, T)
  // Planner statistics: sqlite_stat4 keeps sample rows of every index, token hashes and origins included.
  sqlite.exec('analyze')
}

describe('writeSnapshot', () => {
  const dir = tempDir()
  let handle: DatabaseHandle
  beforeAll(async () => {
    handle = openDatabase({ path: join(dir, 'store.sqlite') })
    await migrateToLatest(handle.db)
    fill(handle.sqlite)
  })
  afterAll(() => handle.close())

  const open = (file: string) => new BetterSqlite3(file, { readonly: true })
  const bytes = (file: string) => readFileSync(file)

  it('leaves out tokens, credentials, secret settings and origin addresses, and keeps the rest', async () => {
    const file = join(dir, 'plain.sqlite')
    const result = await writeSnapshot(handle, file)
    expect(result.secretsLeftOut).toEqual({ tokens: 1, credentials: 1, webhookSecrets: 1, origins: 1, settings: 1 })
    const raw = bytes(file)
    for (const secret of [TOKEN_HASH, 'sealed-secret', 'sealed-webhook-secret', 'hunter2', 'acme-internal']) expect(raw.includes(secret), secret).toBe(false)
    const pack = open(file)
    const sources = pack.prepare('select source from pulls union all select source from pull_cursors union all select source from pulled_documents').pluck().all() as string[]
    expect(new Set(sources).size).toBe(1)
    expect(sources[0]).toMatch(/^https:\/\/origin-[0-9a-f]{8}\.invalid$/)
    expect(pack.prepare('select failure from pulls').pluck().get()).toBe(`${new URL(sources[0]!).host} went away`)
    expect(pack.prepare('select key from settings').pluck().all()).toEqual(['theme'])
    expect(pack.prepare('select count(*) from call_logs').pluck().get()).toBe(2)
    // Views hold no secret: a pack carries them as they are.
    expect(pack.prepare('select name, state from saved_views').get()).toEqual({ name: `Calls from ${CALLER}`, state: JSON.stringify({ query: `"${CALLER}" level:error`, from: 'now-7d', cols: ['time', 'message'] }) })
    expect(pack.prepare('select content from messages where position = 1').pluck().get()).toContain(EMAIL)
    expect(pack.pragma('foreign_key_check')).toEqual([])
    pack.close()
    // The working copy is gone; only the store, its WAL files and the packs are left.
    expect(readdirSync(dir).filter((f) => f.includes('.partial'))).toEqual([])
  })

  it('pseudonymises personal data consistently, keeps JSON valid and numbers exact, and reindexes search', async () => {
    const file = join(dir, 'redacted.sqlite')
    const result = await writeSnapshot(handle, file, { redact: true })
    expect(result.redacted).toMatchObject({ emails: 1, users: 1 })
    const raw = bytes(file)
    for (const original of [CALLER, EMAIL, USER, 'Carmen', 'Jiménez', 'Daniel Moore']) expect(raw.includes(original), original).toBe(false)
    const pack = open(file)
    const phone = pack.prepare('select from_number from calls').pluck().get() as string
    expect(phone).toMatch(/^\+1555\d{7}$/)
    const userId = pack.prepare('select user_id from conversations').pluck().get() as string
    const [first, second] = pack.prepare('select message, details from call_logs order by seq').all() as Array<{ message: string; details: string }>
    expect(first!.message).toBe(`Inbound call from ${phone} for webrtc:${userId}`)
    expect(JSON.parse(first!.details)).toEqual({ from: phone, user: userId, amount: 1.5 })
    const person = /^Caller (Person [0-9a-f]{4}) confirmed$/.exec(second!.message)?.[1]
    expect(person).toBeDefined()
    const contents = pack.prepare('select content from messages order by position').pluck().all()
    expect(contents[0]).toBe('Hi, this is Aria from Northwind Health.')
    expect(contents[2]).toMatch(new RegExp(`^Thanks, ${person}\\. Person [0-9a-f]{4} will call you back\\.$`))
    // A saved view: the caller's stand-in is the calls table's, so its query finds the redacted lines.
    const view = pack.prepare('select name, description, state from saved_views').get() as { name: string; description: string; state: string }
    expect(view.name).toBe(`Calls from ${phone}`)
    expect(view.description).toMatch(/^Person [0-9a-f]{4}'s complaint$/)
    expect(JSON.parse(view.state)).toEqual({ query: `"${phone}" level:error`, from: 'now-7d', cols: ['time', 'message'] })
    expect(pack.prepare('select meta_data from tenants').pluck().get()).toMatch(/^\{"account_manager":"Person [0-9a-f]{4}","seats":12345678901234567890\}$/)
    const matches = (q: string) => pack.prepare('select count(*) from call_logs_fts where call_logs_fts match ?').pluck().get(q)
    expect(matches('Jiménez')).toBe(0)
    expect(matches(`"${person}"`)).toBe(1)
    expect(() => pack.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)").run()).toThrow(/readonly/)
    pack.close()
    const writable = new BetterSqlite3(file)
    expect(() => writable.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)").run()).not.toThrow()
    expect(writable.pragma('integrity_check', { simple: true })).toBe('ok')
    writable.close()
  })

  it('keeps every secret with includeSecrets, and never overwrites a file unless told', async () => {
    const file = join(dir, 'with-secrets.sqlite')
    const result = await writeSnapshot(handle, file, { includeSecrets: true })
    expect(result.secretsLeftOut).toBeNull()
    for (const secret of [TOKEN_HASH, 'sealed-secret', 'sealed-webhook-secret', 'hunter2', ORIGIN]) expect(bytes(file).includes(secret), secret).toBe(true)
    writeFileSync(join(dir, 'taken.sqlite'), 'mine')
    await expect(writeSnapshot(handle, join(dir, 'taken.sqlite'))).rejects.toThrow(/already exists \(use --force/)
    expect(readFileSync(join(dir, 'taken.sqlite'), 'utf8')).toBe('mine')
    await expect(writeSnapshot(handle, handle.path, { overwrite: true })).rejects.toThrow(/is the database being copied/)
    expect(handle.sqlite.prepare('select count(*) from api_tokens').pluck().get()).toBe(1)
    await writeSnapshot(handle, join(dir, 'taken.sqlite'), { overwrite: true })
    expect(open(join(dir, 'taken.sqlite')).prepare('select count(*) from api_tokens').pluck().get()).toBe(0)
  })
})
