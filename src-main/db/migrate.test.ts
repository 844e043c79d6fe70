import { afterEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { tempDir } from '../../test/helpers/temp-dir'
import { Migrator } from 'kysely'
import { type DatabaseHandle, openDatabase } from './connection'
import { migrateToLatest, schemaVersion } from './migrate'
import { migrations } from './migrations'

const schemaObjects = (handle: DatabaseHandle) =>
  handle.sqlite
    .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name")
    .all()

describe('migrations', () => {
  let handle: DatabaseHandle | undefined
  afterEach(async () => handle?.close())

  it('build the whole schema on an empty database', async () => {
    handle = openDatabase({ path: ':memory:' })
    expect(await schemaVersion(handle.db)).toMatchObject({ current: null, applied: 0 })
    const version = await migrateToLatest(handle.db)
    const names = Object.keys(migrations)
    expect(version).toEqual({ current: names.at(-1), applied: names.length, available: names.length })
    const tables = handle.sqlite
      .prepare("select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'call_logs_fts_%' and name not like 'call_logs_trigram_%' order by name")
      .pluck()
      .all()
    expect(tables).toEqual([
      'agents', 'api_tokens', 'call_log_bulk_loads', 'call_logs', 'call_logs_fts', 'call_logs_trigram', 'calls', 'conversations', 'imports', 'messages',
      'provider_credentials', 'pull_cursors', 'pull_syncs', 'pulled_agents', 'pulled_documents', 'pulled_llm_providers', 'pulled_sessions', 'pulled_sip_trunks', 'pulled_squad_analytics', 'pulled_tenants', 'pulls', 'saved_views', 'settings', 'sip_inbound_trunks', 'squad_members', 'squads', 'tenants', 'transfers',
      'webhook_attempts', 'webhook_deliveries', 'webhook_inbox', 'webhook_secrets',
    ])
  })

  it('are idempotent: running them again changes nothing', async () => {
    handle = await migratedDb()
    const before = schemaObjects(handle)
    await migrateToLatest(handle.db)
    expect(schemaObjects(handle)).toEqual(before)
  })

  it('apply on a database file, which then reopens at the same version', async () => {
    const path = `${tempDir()}/m.sqlite`
    handle = openDatabase({ path })
    await migrateToLatest(handle.db)
    await handle.close()
    handle = openDatabase({ path })
    expect((await schemaVersion(handle.db)).applied).toBe(Object.keys(migrations).length)
    expect(handle.sqlite.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(handle.sqlite.pragma('foreign_keys', { simple: true })).toBe(1)
  })

  it('index every call log filter the interface offers', async () => {
    handle = await migratedDb()
    const indexed = handle.sqlite
      .prepare("select name from pragma_index_list('call_logs')")
      .pluck()
      .all()
    expect(indexed).toEqual(
      expect.arrayContaining([
        'call_logs_id',
        'call_logs_timestamp',
        'call_logs_agent_timestamp',
        'call_logs_tenant_timestamp',
        'call_logs_level_timestamp',
        'call_logs_type_timestamp',
        'call_logs_call',
        'call_logs_trace',
        'call_logs_user',
        'call_logs_request',
      ]),
    )
    const plan = handle.sqlite
      .prepare("explain query plan select * from call_logs where agent_id = ? and timestamp >= ? order by timestamp desc limit 100")
      .all('x', '2026')
      .map((r) => (r as { detail: string }).detail)
      .join(' ')
    expect(plan).toContain('call_logs_agent_timestamp')
    expect(plan).not.toContain('TEMP B-TREE')
  })

  it('open the call log values (0008) on a store with rows: every row, its seq and its full-text entry kept', async () => {
    handle = openDatabase({ path: ':memory:' })
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0007-token-expiry')).error).toBeUndefined()
    const insert = handle.sqlite.prepare(
      "insert into call_logs (seq, id, tenant_id, log_type, log_level, message, timestamp, pull_id) values (?, ?, 't', 'llm', ?, ?, '2026-11-01T10:00:00.000Z', ?)",
    )
    insert.run(7, 'a', 'error', 'provider timeout after retrying', 'p1')
    insert.run(9, 'b', 'info', 'call answered', null)
    const objectsBefore = handle.sqlite.prepare("select type, name from sqlite_master where tbl_name = 'call_logs' order by name").all()
    expect(() => insert.run(10, 'c', 'info', 'x', null) && handle!.sqlite.prepare("update call_logs set log_type = 'Call Started' where id = 'c'").run()).toThrow(/CHECK/)

    // Up to the last migration before 0014 (which adds objects of its own to call_logs: the trigram index).
    expect((await migrator.migrateTo('0012-call-list-indexes')).error).toBeUndefined()
    expect(handle.sqlite.prepare('select seq, id, log_level, log_level_original, pull_id from call_logs order by seq').all()).toEqual([
      { seq: 7, id: 'a', log_level: 'error', log_level_original: null, pull_id: 'p1' },
      { seq: 9, id: 'b', log_level: 'info', log_level_original: null, pull_id: null },
      { seq: 10, id: 'c', log_level: 'info', log_level_original: null, pull_id: null },
    ])
    expect(handle.sqlite.prepare("select rowid from call_logs_fts where call_logs_fts match 'retrying'").pluck().all()).toEqual([7])
    expect(handle.sqlite.prepare("select type, name from sqlite_master where tbl_name = 'call_logs' order by name").all()).toEqual(objectsBefore)
    handle.sqlite.prepare("update call_logs set log_type = 'Call Started', log_level_original = 'WARN' where id = 'c'").run()
    // The FTS triggers came back: a new line is searchable, a deleted one is gone.
    insert.run(11, 'd', 'debug', 'transcript chunk', null)
    handle.sqlite.prepare("delete from call_logs where id = 'a'").run()
    expect(handle.sqlite.prepare("select rowid from call_logs_fts where call_logs_fts match 'transcript OR retrying'").pluck().all()).toEqual([11])
    expect(handle.sqlite.pragma('integrity_check', { simple: true })).toBe('ok')
    // FTS5's own check against the content table: throws SQLITE_CORRUPT_VTAB when they differ.
    expect(() => handle!.sqlite.prepare("insert into call_logs_fts(call_logs_fts, rank) values ('integrity-check', 1)").run()).not.toThrow()

    // And back down: a type the old rule refuses stops it, as it should, until that row is gone.
    expect((await migrator.migrateTo('0007-token-expiry')).error).toBeDefined()
    // The failed step left nothing behind: migrations run in one transaction (store-dialect.ts).
    expect(handle.sqlite.prepare("select name from sqlite_master where name like 'call_logs_%' and type = 'table' and name not like 'call_logs_fts%'").pluck().all()).toEqual([])
    expect(handle.sqlite.prepare("select log_type from call_logs where id = 'c'").pluck().get()).toBe('Call Started')
    handle.sqlite.prepare("delete from call_logs where id = 'c'").run()
    expect((await migrator.migrateTo('0007-token-expiry')).error).toBeUndefined()
    expect(handle.sqlite.prepare('select seq from call_logs order by seq').pluck().all()).toEqual([9, 11])
  })

  it('turn pulled session documents into rows (0009), in the listing order, and back', async () => {
    handle = openDatabase({ path: ':memory:' })
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0008-open-log-values')).error).toBeUndefined()
    const doc = handle.sqlite.prepare("insert into pulled_documents (source, kind, key, body, fetched_at, pull_id) values ('http://r', 'session', ?, ?, ?, 'p1')")
    const item = (agent: string, id: string, created: string) => JSON.stringify({ agent_id: agent, conversation_id: id, created_at: created, updated_at: created, message_count: 2, last_message_preview: 'مرحبا' })
    doc.run('a1/c1', item('a1', 'c1', '2026-11-01T10:00:00.000Z'), '2026-11-20T00:00:00.000Z')
    doc.run('a1/c2', item('a1', 'c2', '2026-11-02T10:00:00.000Z'), '2026-11-20T00:00:01.000Z')
    doc.run('a1/c3', item('a1', 'c3', '2026-11-02T10:00:00.000Z'), '2026-11-20T00:00:01.000Z')
    doc.run('a2/c9', item('a2', 'c9', '2026-11-03T10:00:00.000Z'), '2026-11-20T00:00:02.000Z')
    handle.sqlite.prepare("insert into pulled_documents (source, kind, key, body, fetched_at, pull_id) values ('http://r', 'sip_trunks', '*', '{}', '2026-11-20T00:00:00.000Z', 'p1')").run()

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(handle.sqlite.prepare('select agent_id, position, conversation_id, last_message_preview from pulled_sessions order by agent_id, position').all()).toEqual([
      { agent_id: 'a1', position: 0, conversation_id: 'c3', last_message_preview: 'مرحبا' },
      { agent_id: 'a1', position: 1, conversation_id: 'c2', last_message_preview: 'مرحبا' },
      { agent_id: 'a1', position: 2, conversation_id: 'c1', last_message_preview: 'مرحبا' },
      { agent_id: 'a2', position: 0, conversation_id: 'c9', last_message_preview: 'مرحبا' },
    ])
    expect(handle.sqlite.prepare('select id, fetched_at, pull_id from pulled_agents order by id').all()).toEqual([
      { id: 'a1', fetched_at: '2026-11-20T00:00:01.000Z', pull_id: 'p1' },
      { id: 'a2', fetched_at: '2026-11-20T00:00:02.000Z', pull_id: 'p1' },
    ])
    expect(handle.sqlite.prepare('select kind from pulled_documents').pluck().all()).toEqual(['sip_trunks'])
    // The page's lookups use the keys: the agent by id, its sessions in listing order.
    const plan = handle.sqlite
      .prepare("explain query plan select * from pulled_agents a, pulled_sessions s where a.id = ? and s.source = a.source and s.agent_id = a.id order by s.position limit 20")
      .all('a1')
      .map((r) => (r as { detail: string }).detail)
      .join(' | ')
    expect(plan).toMatch(/SEARCH a USING (COVERING )?INDEX pulled_agents_id/)
    expect(plan).toMatch(/SEARCH s USING INDEX sqlite_autoindex_pulled_sessions_1|SEARCH s USING PRIMARY KEY|SEARCH s USING INDEX pulled_sessions/)

    expect((await migrator.migrateTo('0008-open-log-values')).error).toBeUndefined()
    expect(handle.sqlite.prepare("select count(*) from pulled_documents where kind = 'session'").pluck().get()).toBe(4)
  })

  it('turn pulled squad analytics and trunk lists into rows (0010), with the period pulled, and back', async () => {
    handle = openDatabase({ path: ':memory:' })
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0009-pulled-sessions')).error).toBeUndefined()
    handle.sqlite
      .prepare("insert into pulls (id, source, since, until, status, started_at, updated_at) values ('p1', 'http://r', '2026-10-01T00:00:00.000Z', '2026-11-20T00:00:00.000Z', 'completed', '2026-11-20T00:00:00.000Z', '2026-11-20T00:00:00.000Z')")
      .run()
    const doc = handle.sqlite.prepare("insert into pulled_documents (source, kind, key, body, fetched_at, pull_id) values ('http://r', ?, ?, ?, '2026-11-20T00:00:05.000Z', 'p1')")
    doc.run('squad_analytics', 'sq-1', JSON.stringify({ squad_id: 'sq-1', squad_name: 'Front desk', tenant_id: 't1', total: 3 }))
    doc.run('squad_analytics', 'sq-2', JSON.stringify({ figures: [1, 2] }))
    doc.run('sip_trunks', '*', JSON.stringify({ trunks: [{ sip_trunk_id: 'ST_b', tenant_id: 't1', numbers: ['+15550001'] }, { sip_trunk_id: 'ST_a', tenant_id: 't2' }] }))

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(handle.sqlite.prepare('select squad_id, squad_name, tenant_id, period_start, period_end, json_extract(body, \'$.total\') as total from pulled_squad_analytics order by squad_id').all()).toEqual([
      { squad_id: 'sq-1', squad_name: 'Front desk', tenant_id: 't1', period_start: '2026-10-01T00:00:00.000Z', period_end: '2026-11-20T00:00:00.000Z', total: 3 },
      { squad_id: 'sq-2', squad_name: null, tenant_id: null, period_start: '2026-10-01T00:00:00.000Z', period_end: '2026-11-20T00:00:00.000Z', total: null },
    ])
    expect(handle.sqlite.prepare('select position, sip_trunk_id, tenant_id from pulled_sip_trunks order by position').all()).toEqual([
      { position: 0, sip_trunk_id: 'ST_b', tenant_id: 't1' },
      { position: 1, sip_trunk_id: 'ST_a', tenant_id: 't2' },
    ])
    expect(handle.sqlite.prepare('select count(*) from pulled_documents').pluck().get()).toBe(0)
    const plan = handle.sqlite.prepare('explain query plan select body from pulled_squad_analytics where squad_id = ? order by fetched_at desc limit 1').all('sq-1')
    expect(plan.map((r) => (r as { detail: string }).detail).join(' | ')).toMatch(/USING INDEX pulled_squad_analytics_squad/)

    expect((await migrator.migrateTo('0009-pulled-sessions')).error).toBeUndefined()
    expect(handle.sqlite.prepare('select kind, key from pulled_documents order by kind, key').all()).toEqual([
      { kind: 'sip_trunks', key: '*' },
      { kind: 'squad_analytics', key: 'sq-1' },
      { kind: 'squad_analytics', key: 'sq-2' },
    ])
    const list = JSON.parse(handle.sqlite.prepare("select body from pulled_documents where kind = 'sip_trunks'").pluck().get() as string)
    expect(list.trunks.map((t: { sip_trunk_id: string }) => t.sip_trunk_id)).toEqual(['ST_b', 'ST_a'])
  })
  it('key call logs and pulled tenants by source (0018): a second backend\'s ids no longer collide, local rows stay', async () => {
    handle = openDatabase({ path: ':memory:' })
    const migrator = new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } })
    expect((await migrator.migrateTo('0014-log-query')).error).toBeUndefined()
    const { sqlite } = handle
    const at = '2026-11-20T00:00:00.000Z'
    sqlite.prepare(`insert into pulls (id, source, since, until, status, started_at, updated_at) values ('p1', 'http://staging', ?, ?, 'completed', ?, ?)`).run(at, at, at, at)
    const tenant = sqlite.prepare(`insert into tenants (id, name, billing_plan, created_at, updated_at, pull_id) values (?, ?, 'pro', ?, ?, ?)`)
    tenant.run('t-local', 'Local Co', at, at, null)
    tenant.run('t-pulled', 'Pulled Co', at, at, 'p1')
    // A pulled tenant a local agent hangs from stays a local tenant too.
    tenant.run('t-shared', 'Shared Co', at, at, 'p1')
    sqlite.prepare(`insert into agents (id, tenant_id, name, languages, primary_language, llm_provider, llm_model, stt_provider, stt_model, tts_provider, tts_model, created_at, updated_at)
      values ('a1', 't-shared', 'Aria', '["en"]', 'en', 'openai', 'gpt', 'deepgram', 'nova', 'cartesia', 'sonic', ?, ?)`).run(at, at)
    sqlite.prepare(`insert into api_tokens (id, name, token_hash, token_prefix, role, tenant_id, created_at) values ('k1', 'pulled tenant', ?, 'cs_abc', 'tenant', 't-pulled', ?)`).run('a'.repeat(64), at)
    const line = sqlite.prepare(`insert into call_logs (seq, id, tenant_id, log_type, log_level, message, timestamp, pull_id) values (?, ?, ?, 'llm', 'info', 'hello', ?, ?)`)
    line.run(1, 'l1', 't-local', at, null)
    line.run(2, 'l2', 't-pulled', at, 'p1')

    expect((await migrator.migrateTo('0018-sources')).error).toBeUndefined()
    expect(sqlite.prepare('select id, source from call_logs order by seq').all()).toEqual([
      { id: 'l1', source: '' },
      { id: 'l2', source: 'http://staging' },
    ])
    // The same id from another backend is another line; from the same one, a duplicate.
    line.run(3, 'l2', 't-pulled', at, null)
    expect(() => sqlite.prepare(`insert into call_logs (seq, id, tenant_id, log_type, log_level, message, timestamp, source) values (4, 'l2', 't', 'llm', 'info', 'x', ?, 'http://staging')`).run(at)).toThrow(/UNIQUE/)
    expect(sqlite.prepare('select id from tenants order by id').pluck().all()).toEqual(['t-local', 't-shared'])
    expect(sqlite.prepare('select source, id, name, pull_id, fetched_at from pulled_tenants order by id').all()).toEqual([
      { source: 'http://staging', id: 't-pulled', name: 'Pulled Co', pull_id: 'p1', fetched_at: at },
      { source: 'http://staging', id: 't-shared', name: 'Shared Co', pull_id: 'p1', fetched_at: at },
    ])
    expect(sqlite.prepare('select source, id from tenant_rows order by id, source').all()).toEqual([
      { source: '', id: 't-local' },
      { source: 'http://staging', id: 't-pulled' },
      { source: '', id: 't-shared' },
      { source: 'http://staging', id: 't-shared' },
    ])
    // The token of the pulled tenant survived the move (api_tokens no longer cascades from tenants).
    expect(sqlite.prepare('select id, tenant_id, source from api_tokens').all()).toEqual([{ id: 'k1', tenant_id: 't-pulled', source: null }])
    expect(sqlite.pragma('foreign_key_check')).toEqual([])
    expect(sqlite.pragma('integrity_check', { simple: true })).toBe('ok')

    // And back: one line per id again (the local one kept), pulled tenants back in tenants.
    expect((await migrator.migrateTo('0014-log-query')).error).toBeUndefined()
    expect(sqlite.prepare('select seq, id from call_logs order by seq').all()).toEqual([{ seq: 1, id: 'l1' }, { seq: 3, id: 'l2' }])
    expect(sqlite.prepare('select id from tenants order by id').pluck().all()).toEqual(['t-local', 't-pulled', 't-shared'])
  })
})
