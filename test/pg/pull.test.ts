import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import { runCliAsync } from '../helpers/cli'
import { createPgDatabase } from '../helpers/pg-database'
import { itAnswersAsItsSource } from '../helpers/mirror-answers'
import { ADMIN_TOKEN, SEED_ANCHOR, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * A pull into a PostgreSQL store (issue 20): a second Callscope (SQLite, the demo set) serves on
 * loopback, a PostgreSQL store pulls all of it (tenants, call logs through COPY, sessions, squad
 * analytics, trunks, provider details, cursors), and then answers the spec's operations with the
 * same bytes as its source, as test/integration/mirror.test.ts asks of a SQLite mirror.
 */

let source: TestServer
let mirror: TestServer
let report: PullReport

beforeAll(async () => {
  // The source's clock pinned: its defaults that follow the clock (squad analytics' last 30 days)
  // are the same when the pull asks and when the test asks again (mirror-answers.ts).
  source = await startTestServer({ service: { clock: () => SEED_ANCHOR } })
  mirror = await startTestServer({ seed: false, store: 'postgres' })
  // Since long before the demo data: everything the source has.
  report = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
}, 180_000)
afterAll(async () => {
  await mirror?.close()
  await source?.close()
})

/** Rows of a table of the PostgreSQL mirror. */
async function count(table: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(mirror.service.db)
  return rows[0]!.n
}

describe('a PostgreSQL mirror pulled from a second Callscope', () => {
  it('pulled everything without a problem, each call log once, with its cursors', async () => {
    expect(report).toMatchObject({ status: 'completed', failure: null, errors: [] })
    // Served from pulled rows: the mirror has no agent or conversation of its own.
    expect([await count('agents'), await count('conversations')]).toEqual([0, 0])
    expect(await count('pulled_sessions')).toBe(source.sqlite.prepare('select count(*) from conversations').pluck().get())
    const logs = source.sqlite.prepare('select count(*) from call_logs').pluck().get() as number
    expect(report.counts.callLogs).toMatchObject({ fetched: logs, inserted: logs, duplicates: 0, invalid: 0 })
    expect([await count('call_logs'), await count('call_log_ids')]).toEqual([logs, logs])
    const origin = await mirror.service.db.selectFrom('call_logs').select(['pull_id', 'source', 'import_id']).distinct().execute()
    expect(origin).toEqual([{ pull_id: report.id, source: source.url, import_id: null }])
    expect(await count('pull_cursors')).toBeGreaterThan(0)
  })


  itAnswersAsItsSource(() => ({ source, mirror, report }))

  it('pulls again without storing anything twice (last: the pulled analytics take the new period)', async () => {
    const again = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
    expect(again).toMatchObject({ status: 'completed', failure: null, errors: [] })
    expect(again.counts.callLogs.inserted).toBe(0)
    expect(await count('call_logs')).toBe(source.sqlite.prepare('select count(*) from call_logs').pluck().get())
  }, 120_000)
})

describe('Keep in sync / pull --follow into PostgreSQL', () => {
  it('mirrors everything on its first cycle, then picks up a line added to the source', async () => {
    const synced = await startTestServer({ seed: false, store: 'postgres' })
    try {
      const cycles: PullReport[] = []
      const waiters: Array<{ match: (p: PullReport) => boolean; resolve: (p: PullReport) => void }> = []
      const next = (match: (p: PullReport) => boolean) => new Promise<PullReport>((resolve) => waiters.push({ match, resolve }))
      const onCycle = (pull: PullReport) => {
        cycles.push(pull)
        for (const w of [...waiters]) if (w.match(pull)) waiters.splice(waiters.indexOf(w), 1) && w.resolve(pull)
      }
      const first = next(() => true)
      const { done } = await synced.service.syncs.begin({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, intervalMs: 1000 }, { onCycle })
      expect(await first).toMatchObject({ status: 'completed', sync: true, errors: [] })
      const stored = async () => (await sql<{ n: number }>`select count(*) as n from call_logs`.execute(synced.service.db)).rows[0]!.n
      expect(await stored()).toBe(source.sqlite.prepare('select count(*) from call_logs').pluck().get())

      const tenant = source.sqlite.prepare('select id from tenants order by id limit 1').pluck().get() as string
      const id = randomUUID()
      const line = { id, tenant_id: tenant, log_type: 'llm', log_level: 'error', message: 'late line into PostgreSQL', timestamp: new Date(Date.now() - 1000).toISOString(), details: {} }
      const added = next((p) => p.counts.callLogs.inserted > 0)
      expect((await source.get('/imports/call-logs?file_name=late.ndjson', { method: 'POST', body: JSON.stringify(line), headers: { 'Content-Type': 'application/x-ndjson' } })).status).toBe(201)
      expect((await added).counts.callLogs.inserted).toBe(1)
      const row = await synced.service.db.selectFrom('call_logs').select(['message', 'source']).where('id', '=', id).executeTakeFirst()
      expect(row).toEqual({ message: 'late line into PostgreSQL', source: source.url })
      await synced.service.syncs.stop(source.url)
      const ended = await done
      expect(ended).toMatchObject({ running: false, failures: 0, lastError: null })
      expect(ended.cycles).toBeGreaterThanOrEqual(2)
    } finally {
      await synced.close()
    }
  }, 180_000)
})

describe('callscope pull --db postgres://', () => {
  it('pulls into a PostgreSQL store and prints what it fetched', async () => {
    const url = await createPgDatabase({ seed: false })
    const result = await runCliAsync(['pull', '--base-url', source.url, '--since', '2026-11-15', '--rate', '500', '--db', url], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const expected = source.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-11-15T00:00:00.000Z'").pluck().get() as number
    expect(expected).toBeGreaterThan(1000)
    expect(result.stdout).toContain(`call logs        ${expected.toLocaleString('en-US')} fetched since 2026-11-15T00:00:00.000Z`)
    expect(result.stdout).toMatch(/tenants {10}3 fetched/)
    const info = await runCliAsync(['db', 'info', '--json', '--db', url])
    expect((JSON.parse(info.stdout) as { counts: Record<string, number> }).counts).toMatchObject({ call_logs: expected, tenants: 0, pulled_tenants: 3, pulls: 1 })
  }, 120_000)
})
