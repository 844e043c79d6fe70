import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import type { SyncReport } from '../../src-main/modules/pull/pull-syncs.service'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15 pt 3: a source kept in sync. Each cycle is awaited through the sync's own hook, never
 * by sleeping: the test waits for the cycle that shows what it expects.
 */

let source: TestServer
let mirror: TestServer
const cycles: Array<{ pull: PullReport; sync: SyncReport }> = []
const waiters: Array<{ match: (c: { pull: PullReport; sync: SyncReport }) => boolean; resolve: (c: { pull: PullReport; sync: SyncReport }) => void }> = []
let done: Promise<SyncReport>

/** The first cycle from now on that matches. */
function nextCycle(match: (c: { pull: PullReport; sync: SyncReport }) => boolean): Promise<{ pull: PullReport; sync: SyncReport }> {
  return new Promise((resolve) => waiters.push({ match, resolve }))
}

function onCycle(pull: PullReport, sync: SyncReport) {
  const cycle = { pull, sync }
  cycles.push(cycle)
  for (const w of [...waiters]) {
    if (w.match(cycle)) {
      waiters.splice(waiters.indexOf(w), 1)
      w.resolve(cycle)
    }
  }
}

/** A new call log line on the source, through its own import endpoint. */
async function addLine(message: string): Promise<string> {
  const tenant = source.sqlite.prepare('select id from tenants order by id limit 1').pluck().get() as string
  const id = randomUUID()
  const line = { id, tenant_id: tenant, log_type: 'llm', log_level: 'error', message, timestamp: new Date(Date.now() - 1000).toISOString(), details: {} }
  const response = await source.get('/imports/call-logs?file_name=late.ndjson', { method: 'POST', body: JSON.stringify(line), headers: { 'Content-Type': 'application/x-ndjson' } })
  expect(response.status).toBe(201)
  return id
}

const mirrored = (id: string) => mirror.sqlite.prepare('select message from call_logs where id = ?').pluck().get(id)

beforeAll(async () => {
  source = await startTestServer()
  mirror = await startTestServer({ seed: false })
  const first = nextCycle(() => true)
  ;({ done } = await mirror.service.syncs.begin(
    { baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, intervalMs: 1000 },
    { onCycle },
  ))
  const { pull } = await first
  expect(pull).toMatchObject({ status: 'completed', sync: true, errors: [] })
}, 120_000)

afterAll(async () => {
  await mirror?.close()
  await source?.close()
})

describe('pull --follow / Keep in sync', () => {
  it('mirrors everything on its first cycle, then fetches only what is new', async () => {
    const count = (server: TestServer) => server.sqlite.prepare('select count(*) from call_logs').pluck().get()
    expect(count(mirror)).toBe(count(source))
    const { pull } = await nextCycle(() => true)
    expect(pull.status).toBe('completed')
    expect(pull.counts.callLogs.inserted).toBe(0)
    // The call log walk starts near where the last cycle ended, and each listing is checked by its first page.
    expect(pull.counts.callLogs.windows).toBeLessThanOrEqual(2)
    expect(pull.counts.sessions.unchanged).toBe(source.sqlite.prepare('select count(distinct agent_id) from conversations').pluck().get())
    expect(pull.counts.sessions.fetched).toBe(0)
  })

  it('picks up a record added to the source while it runs', async () => {
    const id = await addLine('late line while syncing')
    const { pull } = await nextCycle((c) => c.pull.counts.callLogs.inserted > 0)
    expect(pull.counts.callLogs.inserted).toBe(1)
    expect(mirrored(id)).toBe('late line while syncing')
  })

  it('keeps going while the source is away, and resumes when it is back', async () => {
    await source.stopListening()
    const failed = await nextCycle((c) => c.pull.status === 'failed')
    expect(failed.sync).toMatchObject({ state: 'retrying', failures: 1, running: true })
    expect(failed.sync.lastError).toMatch(/still failing|ECONNREFUSED|fetch failed|refused/i)
    expect(Date.parse(failed.sync.nextCycleAt!)).toBeGreaterThan(Date.now() - 1000)
    await nextCycle((c) => c.sync.failures >= 2)
    // Back, with a line written meanwhile.
    await source.listenAgain()
    const id = await addLine('written while the mirror could not reach the source')
    const back = await nextCycle((c) => c.pull.status === 'completed' && c.pull.counts.callLogs.inserted > 0)
    expect(back.sync).toMatchObject({ state: 'waiting', failures: 0, lastError: null })
    expect(mirrored(id)).toBe('written while the mirror could not reach the source')
  })

  it('lists its cycles apart from one-off pulls and stops cleanly when switched off', async () => {
    expect(await mirror.service.pulls.list()).toEqual([])
    const all = await mirror.service.pulls.list(200, { syncCycles: true })
    expect(all.length).toBe(cycles.length + (all[0]!.status === 'running' ? 1 : 0))
    const stopped = await mirror.service.syncs.stop(source.url)
    expect(stopped).toMatchObject({ source: source.url, state: 'stopped', running: false, nextCycleAt: null })
    expect(await done).toMatchObject({ state: 'stopped' })
    const [listed] = await mirror.service.syncs.list()
    expect(listed).toMatchObject({ source: source.url, state: 'stopped', cycles: expect.any(Number), lastSuccessAt: expect.any(String) })
    // Nothing runs any more: no pull is left running.
    expect((await mirror.service.pulls.list(200, { syncCycles: true })).filter((p) => p.status === 'running')).toEqual([])
  })

  it('refuses a second sync of the same source and a bad interval, clearly', async () => {
    await expect(mirror.service.syncs.begin({ baseUrl: source.url, token: ADMIN_TOKEN, intervalMs: 10 })).rejects.toThrow(/the interval must be between 1 s and 24 h/)
    const { done: again } = await mirror.service.syncs.begin({ baseUrl: source.url, token: ADMIN_TOKEN, intervalMs: 60_000 })
    await expect(mirror.service.syncs.begin({ baseUrl: source.url, token: ADMIN_TOKEN })).rejects.toThrow(/already being kept in sync; stop it first/)
    await mirror.service.syncs.stop(source.url)
    await again
  })

  it('stops for good when the token is refused', async () => {
    const { done: refused } = await mirror.service.syncs.begin({ baseUrl: source.url, token: 'wrong-token', intervalMs: 1000, since: '2026-11-01' })
    expect(await refused).toMatchObject({ state: 'failed', failures: 1, lastError: expect.stringMatching(/refused the token/) })
  })
})
