import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { detachCallLogPartitionsBefore } from '../../src-main/db/pg-partitions'
import type { Database } from '../../src-main/db/schema'
import { comboCountsByDays } from '../../src-main/modules/call-logs/call-logs.day-combos'
import { comboCounts } from '../../src-main/modules/call-logs/call-logs.search.repo'
import { createService, type Service } from '../../src-main/service'
import { createPgDatabase } from '../helpers/pg-database'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * PostgreSQL's call log day counts (pg migration 0004): whatever wrote the lines (the seed's bulk
 * copy, an import's INSERT … SELECT, an insert of the API), the table holds exactly the lines
 * grouped by UTC day, source, tenant, agent, level and type; retention takes a month's counts with
 * its lines. Facets and the histogram read it (their answers against SQLite's are in
 * explorer-parity.test.ts).
 */

/** Rows where the day counts and the lines grouped differ, from either side: none when they agree. */
async function drift(db: Kysely<Database>) {
  const { rows } = await sql<Record<string, unknown>>`
    with grouped as (
      select ("timestamp" at time zone 'UTC')::date as day, source, tenant_id, agent_id, log_level, log_type, count(*)::bigint as lines
      from call_logs group by 1, 2, 3, 4, 5, 6
    )
    (select 'counted' as side, * from call_log_day_counts except all select 'counted', * from grouped)
    union all
    (select 'lines', * from grouped except all select 'lines', * from call_log_day_counts)`.execute(db)
  return rows
}

const totalCounted = async (db: Kysely<Database>) =>
  Number((await db.selectFrom('call_log_day_counts').select((eb) => eb.fn.sum<string>('lines').as('n')).executeTakeFirstOrThrow()).n ?? 0)

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

describe('call log day counts on PostgreSQL', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer({ store: 'postgres' })
  })
  afterAll(() => server?.close())

  it('hold the copied demo lines, grouped, after the seed\'s bulk copy', async () => {
    const db = server.service.db
    const lines = Number((await db.selectFrom('call_logs').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    expect(lines).toBeGreaterThan(10_000)
    expect(await totalCounted(db)).toBe(lines)
    expect(await drift(db)).toEqual([])
  })

  it('follow an import: new lines counted once (lines without an agent in one row), duplicates and refused records not at all', async () => {
    const db = server.service.db
    const before = await totalCounted(db)
    const records = Array.from({ length: 30 }, (_, n) => ({
      id: uuid(700_000 + n),
      tenant_id: uuid(n % 2),
      log_type: n % 3 === 0 ? 'stt' : 'llm',
      log_level: n % 4 === 0 ? 'WARN' : 'info',
      message: `day count line ${n}`,
      // Three UTC days, one line on each side of a midnight.
      timestamp: `2026-11-${String(10 + (n % 3)).padStart(2, '0')}T${n % 2 ? '23:59:59.999' : '00:00:00.000'}Z`,
      agent_id: n % 6 === 0 ? null : uuid(800_000 + (n % 2)),
    }))
    const file = [...records, records[3], { ...records[4], log_level: 'loud', id: uuid(799_999) }].map((r) => JSON.stringify(r)).join('\n')
    const post = async () => {
      const response = await server.get('/imports/call-logs?file_name=day-counts.ndjson', { method: 'POST', body: file, headers: { 'Content-Type': 'application/x-ndjson' } })
      expect(response.status).toBe(201)
      return response.json()
    }
    expect(await post()).toMatchObject({ status: 'completed', inserted: 30, duplicates: 1, invalid: 1 })
    expect(await totalCounted(db)).toBe(before + 30)
    expect(await drift(db)).toEqual([])
    const noAgent = await db.selectFrom('call_log_day_counts').select(['lines']).where('day', '=', '2026-11-10').where('tenant_id', '=', uuid(0)).where('agent_id', 'is', null).where('log_level', '=', 'warning').where('log_type', '=', 'stt').execute()
    // Records 0, 12 and 24: one row for the three lines without an agent (NULLS NOT DISTINCT).
    expect(noAgent).toEqual([{ lines: 3 }])
    // The same file again: every record already stored, nothing counted.
    expect(await post()).toMatchObject({ status: 'completed', inserted: 0, duplicates: 31 })
    expect(await totalCounted(db)).toBe(before + 30)
    expect(await drift(db)).toEqual([])
  })

  it('sum to what the lines group to over a range cut inside days', async () => {
    const db = server.service.db
    for (const range of [{}, { from: '2026-10-20T07:15:00.000Z' }, { from: '2026-11-01T00:00:00.000Z', to: '2026-11-10T23:59:59.999Z' }, { from: '2026-10-21T13:00:00.000Z', to: '2026-11-19T11:00:00.000Z' }]) {
      const byDays = await comboCountsByDays(db, range)
      const byLines = await comboCounts(db, range)
      const sorted = (combos: typeof byLines) => combos.map((c) => JSON.stringify(c)).sort()
      expect(byDays, JSON.stringify(range)).not.toBeNull()
      expect(sorted(byDays!)).toEqual(sorted(byLines))
    }
    // No whole day in the range: the lines are read instead.
    expect(await comboCountsByDays(db, { from: '2026-11-10T06:00:00.000Z', to: '2026-11-11T05:00:00.000Z' })).toBeNull()
  })
})

describe('retention and day counts', () => {
  let service: Service
  beforeAll(async () => {
    service = await createService({ dbPath: await createPgDatabase({ seed: false }), seedNewDatabase: false, envToken: 'pg-admin' })
  })
  afterAll(() => service?.close())

  it('a detached month takes its day counts with it; later months keep theirs', async () => {
    const db = service.db
    await sql`select callscope_call_log_partitions('2024-01-01'::timestamptz, '2024-03-31'::timestamptz)`.execute(db)
    const line = (id: string, timestamp: string) => ({ id, tenant_id: 't', log_type: 'call', log_level: 'info', message: 'kept for a while', timestamp })
    await db.insertInto('call_logs').values([line('a', '2024-01-31T23:59:59.999Z'), line('b', '2024-02-01T00:00:00.000Z'), line('c', '2024-03-05T10:00:00.000Z')]).execute()
    const days = async () => (await sql<{ day: string }>`select to_char(day, 'YYYY-MM-DD') as day from call_log_day_counts order by day`.execute(db)).rows.map((r) => r.day)
    expect(await days()).toEqual(['2024-01-31', '2024-02-01', '2024-03-05'])
    expect(await detachCallLogPartitionsBefore(db, '2024-03-01T00:00:00.000Z')).toEqual(['call_logs_2024_01', 'call_logs_2024_02'])
    expect(await days()).toEqual(['2024-03-05'])
    expect(await drift(db)).toEqual([])
  })
})
