import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callLogPartitions, detachCallLogPartitionsBefore, ensureCallLogPartitions, ensurePartitionsAhead } from '../../src-main/db/pg-partitions'
import { isoFromTimestamptz } from '../../src-main/db/pg-types'
import { storeKind } from '../../src-main/db/store-kind'
import { createService, type Service } from '../../src-main/service'
import { createPgDatabase } from '../helpers/pg-database'
import { startTestServer, type TestServer } from '../helpers/test-server'
import { pgMigrations } from '../../src-main/db/pg-migrations'
import { OWNER } from '../../src-main/kit/access'
import { callLogFilterSchema } from '../../src-shared/schemas/call-log-search'
import { tempDir } from '../helpers/temp-dir'

/** Every migration of the PostgreSQL list, the last one current. */
const PG_MIGRATIONS = Object.keys(pgMigrations).length
const LATEST = Object.keys(pgMigrations).at(-1)

/*
 * The PostgreSQL store itself (issue 20): its schema and migrations, the shapes values come back
 * in (the SQLite store's, so services map rows alike), partitions, the copied demo set, and the
 * ported services against the SQLite store holding the same rows.
 */

describe('a new PostgreSQL store', () => {
  let service: Service
  beforeAll(async () => {
    service = await createService({ dbPath: await createPgDatabase({ seed: false }), seedNewDatabase: false, envToken: 'pg-admin' })
  })
  afterAll(() => service?.close())

  it('is migrated on start, says so in db info, and hides a password in its location', async () => {
    expect(storeKind(service.db)).toBe('postgres')
    const info = await service.info()
    expect(info.kind).toBe('postgres')
    expect(info.schema).toEqual({ current: LATEST, applied: PG_MIGRATIONS, available: PG_MIGRATIONS })
    expect(info.sizeBytes).toBeGreaterThan(1_000_000)
    expect(Object.values(info.counts).every((n) => n === 0)).toBe(true)
    expect(info.path).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/t_[0-9a-f]+$/)
    // The current month and the next two have partitions before any line is written.
    const months = (await callLogPartitions(service.db)).map((p) => p.month)
    const now = new Date()
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString()
    expect(months[0]).toBe(first)
    expect(months).toHaveLength(3)
  })

  it('reads values back in the SQLite store\'s shapes: ISO instants, 0/1 flags, JSON text, numeric counts', async () => {
    await service.db
      .insertInto('tenants')
      .values({ id: 'c0ffee00-0000-4000-8000-000000000001', name: 'Zed', billing_plan: 'pro', meta_data: '{"b":1,"a":[1,2]}', sip_enabled: 1, created_at: '2026-11-22T10:00:00.120Z', updated_at: '2026-11-22T10:00:00Z' })
      .execute()
    const row = await service.db.selectFrom('tenants').selectAll().executeTakeFirstOrThrow()
    expect(row).toMatchObject({ sip_enabled: 1, pci_enabled: 0, recording_enabled: 1, meta_data: '{"b":1,"a":[1,2]}', created_at: '2026-11-22T10:00:00.120Z', updated_at: '2026-11-22T10:00:00.000Z', monthly_usage_cents: 0 })
    const count = await service.db.selectFrom('tenants').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
    expect(count.n).toBe(1)
    // Text compares as SQLite's BINARY collation does (code points), whatever the server's locale.
    const { rows } = await sql<{ s: string }>`select s from (values ('b'), ('B'), ('a'), ('É')) v(s) order by s collate "C"`.execute(service.db)
    expect(rows.map((r) => r.s)).toEqual(['B', 'a', 'b', 'É'])
    const ordered = await service.db.selectFrom('tenants').select('name').orderBy('name').execute()
    expect(ordered).toEqual([{ name: 'Zed' }])
  })

  it('turns PostgreSQL timestamptz text into the store\'s instant text', () => {
    expect(isoFromTimestamptz('2026-11-22 10:00:00+00')).toBe('2026-11-22T10:00:00.000Z')
    expect(isoFromTimestamptz('2026-11-22 10:00:00.1+00')).toBe('2026-11-22T10:00:00.100Z')
    expect(isoFromTimestamptz('2026-11-22 11:30:00.123+01:30')).toBe('2026-11-22T10:00:00.123Z')
    expect(isoFromTimestamptz('infinity')).toBe('infinity')
  })

  it('keeps CHECK constraints: a tenant without a name is refused', async () => {
    await expect(
      service.db.insertInto('tenants').values({ id: 'x', name: '', billing_plan: 'pro', created_at: '2026-11-22T10:00:00Z', updated_at: '2026-11-22T10:00:00Z' }).execute(),
    ).rejects.toThrow(/check constraint/)
  })

  it('creates a month\'s partition when asked, and detaches old months for retention', async () => {
    expect(await ensureCallLogPartitions(service.db, '2024-01-31T23:59:59.999Z', '2024-03-01T00:00:00.000Z')).toBe(3)
    expect(await ensureCallLogPartitions(service.db, '2024-02-10T00:00:00.000Z', '2024-02-11T00:00:00.000Z')).toBe(0)
    expect(await ensurePartitionsAhead(service.db)).toBe(0)
    const line = { id: 'l1', tenant_id: 't', log_type: 'call', log_level: 'info', message: 'hello', timestamp: '2024-02-29T12:00:00.000Z' }
    await service.db.insertInto('call_logs').values(line).execute()
    // No partition for 1999: the write is refused rather than put anywhere.
    await expect(service.db.insertInto('call_logs').values({ ...line, id: 'l2', timestamp: '1999-01-01T00:00:00.000Z' }).execute()).rejects.toThrow(/no partition/)
    expect(await detachCallLogPartitionsBefore(service.db, '2024-03-01T00:00:00.000Z')).toEqual(['call_logs_2024_01', 'call_logs_2024_02'])
    const left = await service.db.selectFrom('call_logs').select('id').execute()
    expect(left).toEqual([])
    expect((await callLogPartitions(service.db)).map((p) => p.name)).not.toContain('call_logs_2024_02')
  })
})

describe('tokens on PostgreSQL', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ store: 'postgres' })
  })
  afterAll(() => server?.close())

  it('creates, authenticates, expires and revokes tokens as on SQLite', async () => {
    const tokens = server.service.tokens
    const tenant = (await server.service.db.selectFrom('tenants').select('id').orderBy('id').executeTakeFirstOrThrow()).id
    const viewer = await tokens.create({ name: 'viewer', role: 'viewer' })
    const scoped = await tokens.create({ name: 'tenant', role: 'tenant', tenantId: tenant, expires: '1d' })
    expect(await tokens.authenticate(viewer.token)).toMatchObject({ role: 'viewer', tenantId: null })
    expect(await tokens.authenticate(scoped.token)).toMatchObject({ role: 'tenant', tenantId: tenant })
    const listed = await tokens.list()
    expect(listed.map((t) => t.status)).toEqual(['active', 'active'])
    expect(listed[1]!.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    // last_used_at was written on use, as an instant.
    const used = await server.service.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', viewer.record.id).executeTakeFirstOrThrow()
    expect(used.last_used_at).toMatch(/Z$/)
    await tokens.revoke(viewer.record.id.slice(0, 8))
    expect(await tokens.authenticate(viewer.token)).toBeNull()
    expect(await tokens.countActiveAdmins()).toBe(0)
    const res = await server.get(`/tenants/${tenant}`, { headers: { Authorization: `Bearer ${scoped.token}` } })
    expect(res.status).toBe(200)
    await expect(tokens.create({ name: 'nobody', role: 'tenant', tenantId: '0b8c7a3e-0000-4000-8000-000000000000' })).rejects.toThrow(/not found/)
  })

  it('holds the demo set copied from SQLite: the same counts, call_log_ids filled, seq continuing after the copy', async () => {
    const info = await server.service.info()
    expect(info.counts).toMatchObject({ tenants: 3, agents: 15, squads: 3, transfers: expect.any(Number) })
    expect(info.counts.call_logs).toBeGreaterThan(10_000)
    const ids = await server.service.db.selectFrom('call_log_ids' as never).select(sql`count(*)`.as('n')).executeTakeFirstOrThrow()
    expect((ids as { n: number }).n).toBe(info.counts.call_logs)
    const { rows } = await sql<{ next: number; max: number }>`select nextval('call_logs_seq') as next, (select max(seq) from call_logs) as max`.execute(server.service.db)
    expect(rows[0]!.next).toBe(rows[0]!.max + 1)
  })

  it('has after the copy the very indexes the migrations create, valid and on every partition (the copy drops and rebuilds them)', async () => {
    const definitions = async (db: Service['db']) => (await sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes
      where tablename in ('call_logs', 'messages') order by indexname`.execute(db)).rows
    const empty = await createService({ dbPath: await createPgDatabase({ seed: false }), seedNewDatabase: false })
    try {
      const expected = await definitions(empty.db)
      expect(expected.length).toBeGreaterThan(15)
      expect(await definitions(server.service.db)).toEqual(expected)
    } finally {
      await empty.close()
    }
    // Each partition holding lines has one attached, valid index per index of call_logs.
    const { rows } = await sql<{ partition: string; indexes: number; invalid: number }>`
      select c.relname as partition, count(x.indexrelid)::int as indexes, count(*) filter (where not x.indisvalid)::int as invalid
      from pg_inherits h join pg_class c on c.oid = h.inhrelid left join pg_index x on x.indrelid = c.oid
      where h.inhparent = 'call_logs'::regclass group by c.relname`.execute(server.service.db)
    const parent = await sql<{ n: number }>`select count(*)::int as n from pg_index where indrelid = 'call_logs'::regclass`.execute(server.service.db)
    expect(rows.length).toBeGreaterThan(1)
    for (const row of rows) expect(row).toEqual({ partition: row.partition, indexes: parent.rows[0]!.n, invalid: 0 })
  })
})

describe('the demo seed on PostgreSQL', () => {
  it('writes the rows the same seed writes into SQLite (its scratch store skips SQLite\'s indexes), and the copied store searches', async () => {
    const options = { scale: 'small' as const, seed: 7, anchor: Date.parse('2026-11-20T12:00:00Z') }
    const onPg = await createService({ dbPath: await createPgDatabase({ seed: false }), seedNewDatabase: false })
    const onSqlite = await createService({ dbPath: `${tempDir()}/seeded.sqlite`, seedNewDatabase: false, readers: 0 })
    try {
      const [pgResult, sqliteResult] = [await onPg.database.seed(options), await onSqlite.database.seed(options)]
      const counts = ({ ms: _, phases: __, ...rest }: typeof pgResult) => rest
      expect(counts(pgResult)).toEqual(counts(sqliteResult))
      expect(pgResult.callLogs).toBeGreaterThan(19_000)
      // Line by line: every id, instant, level and message, in seq order.
      const lines = (s: Service) => s.db.selectFrom('call_logs').select(['seq', 'id', 'timestamp', 'log_level', 'message', 'agent_id']).orderBy('seq').execute()
      expect(await lines(onPg)).toEqual(await lines(onSqlite))
      const messages = (s: Service) => s.db.selectFrom('messages').select(['conversation_id', 'position', 'content']).orderBy('conversation_id').orderBy('position').execute()
      expect(await messages(onPg)).toEqual(await messages(onSqlite))
      // The full-text and trigram indexes were built on PostgreSQL: the same lines found by word and by substring.
      const found = async (s: Service, filter: { q?: string; query?: string }) => (await s.callLogs.search(OWNER, callLogFilterSchema.parse(filter), undefined, 500)).rows.map((r) => r.id)
      for (const filter of [{ q: 'timeout' }, { query: 'imeout' }]) {
        const ids = await found(onPg, filter)
        expect(ids.length).toBeGreaterThan(5)
        expect(ids).toEqual(await found(onSqlite, filter))
      }
    } finally {
      await onPg.close()
      await onSqlite.close()
    }
  })
})
