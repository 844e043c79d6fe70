import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PullReport } from '../../src-main/modules/pull/pulls.service'
import { itAnswersAsItsSource } from '../helpers/mirror-answers'
import { ADMIN_TOKEN, SEED_ANCHOR, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15, point 1: a store pulled from a second Callscope on loopback answers the spec's
 * operations with the same bytes as its source. Each operation compared here is compared for every
 * id the source has, the status and the body's exact text.
 */

let source: TestServer
let mirror: TestServer
let report: PullReport

beforeAll(async () => {
  // The source's clock pinned: its defaults that follow the clock (squad analytics' last 30 days)
  // are the same when the pull asks and when the test asks again (mirror-answers.ts).
  source = await startTestServer({ service: { clock: () => SEED_ANCHOR } })
  mirror = await startTestServer({ seed: false })
  // Since long before the demo data: everything the source has.
  report = await mirror.service.pulls.pull({ baseUrl: source.url, token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 })
}, 120_000)
afterAll(async () => {
  await mirror?.close()
  await source?.close()
})

describe('a mirror pulled from a second Callscope', () => {
  it('pulled everything without a problem', () => {
    expect(report).toMatchObject({ status: 'completed', failure: null, errors: [] })
    // Served from pulled rows: the mirror has no agent or conversation of its own.
    const count = (table: string) => mirror.sqlite.prepare(`select count(*) from ${table}`).pluck().get()
    expect([count('agents'), count('conversations')]).toEqual([0, 0])
    expect(count('pulled_sessions')).toBe(source.sqlite.prepare('select count(*) from conversations').pluck().get())
  })

  itAnswersAsItsSource(() => ({ source, mirror, report }))
})
