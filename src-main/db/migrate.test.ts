import { afterEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../test/helpers/migrated-db'
import { tempDir } from '../../test/helpers/temp-dir'
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
      .prepare("select name from sqlite_master where type = 'table' and name not like 'kysely_%' and name not like 'call_logs_fts_%' order by name")
      .pluck()
      .all()
    expect(tables).toEqual([
      'agents', 'api_tokens', 'call_logs', 'call_logs_fts', 'calls', 'conversations', 'imports', 'messages',
      'provider_credentials', 'pull_cursors', 'pulled_documents', 'pulls', 'settings', 'sip_inbound_trunks', 'squad_members', 'squads', 'tenants', 'transfers',
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
})
