import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCliAsync } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { startTestServer, type TestServer } from '../helpers/test-server'

/*
 * `callscope seed --reset` on a PostgreSQL store (issue 20), as on SQLite: the demo data and every
 * call log replaced in one transaction, API tokens kept; without --reset a store holding data is
 * refused with SQLite's message, before any seeding.
 */

let postgres: TestServer
beforeAll(async () => {
  postgres = await startTestServer({ store: 'postgres' })
})
afterAll(() => postgres?.close())

const SEED = ['--scale', 'small', '--seed', '2', '--anchor', '2026-11-10T08:00:00Z']
const countsOf = async (db: string) => (JSON.parse((await runCliAsync(['db', 'info', '--json', '--db', db])).stdout) as { counts: Record<string, number> }).counts

describe('seed --reset on PostgreSQL', { timeout: 300_000 }, () => {
  it('is refused without --reset while the store holds data, with the SQLite store\'s message', async () => {
    const refused = await runCliAsync(['seed', '--db', postgres.dbPath, ...SEED])
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toMatch(/the database already holds data; pass --reset to replace it \(API tokens and settings are kept\)/)
  })

  it('replaces the demo data and every call log with what the same seed gives SQLite, keeping tokens', async () => {
    const db = postgres.service.db
    const token = await postgres.service.tokens.create({ name: 'kept', role: 'viewer' })
    await db.insertInto('call_logs').values({ id: 'pulled-1', tenant_id: 't', log_type: 'call', log_level: 'info', message: 'from elsewhere', timestamp: '2026-11-05T10:00:00.000Z', source: 'https://backend.example' }).execute()
    const sqliteFile = `${tempDir()}/reseeded.sqlite`
    const [reset, fresh] = await Promise.all([
      runCliAsync(['seed', '--db', postgres.dbPath, '--reset', ...SEED], {}, 240_000),
      runCliAsync(['seed', '--db', sqliteFile, ...SEED], {}, 240_000),
    ])
    expect(reset.stderr).toBe('')
    expect(reset.status).toBe(0)
    expect(fresh.status).toBe(0)
    const [pgCounts, sqliteCounts] = await Promise.all([countsOf(postgres.dbPath), countsOf(sqliteFile)])
    const { api_tokens: pgTokens, ...pgRest } = pgCounts
    const { api_tokens: _none, ...sqliteRest } = sqliteCounts
    expect(pgRest).toEqual(sqliteRest)
    expect(pgRest.call_logs).toBeGreaterThan(10_000)
    expect(pgTokens).toBeGreaterThanOrEqual(1)
    expect(await postgres.service.tokens.authenticate(token.token)).toMatchObject({ role: 'viewer' })
    expect(await db.selectFrom('call_logs').select('id').where('id', '=', 'pulled-1').execute()).toEqual([])
    // The newest lines are the new seed's, and the day counts hold exactly its lines.
    const newest = await postgres.get('/logs/calls?limit=1')
    expect(((await newest.json()) as Array<{ timestamp: string }>)[0]!.timestamp < '2026-11-10T08:00:00.001Z').toBe(true)
    const counted = await db.selectFrom('call_log_day_counts').select((eb) => eb.fn.sum<string>('lines').as('n')).executeTakeFirstOrThrow()
    expect(Number(counted.n)).toBe(pgRest.call_logs)
  })
})
