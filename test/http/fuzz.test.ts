import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { runFuzz } from '../fuzz/fuzz-run'
import { type FuzzServer, startFuzzServer } from '../fuzz/fuzz-server'
import { formatSummary } from '../fuzz/tally'

/**
 * A short `npm run fuzz`: requests generated from the served /openapi.json (every operation, the
 * imports and exports too, raw-socket oddities beside them) against the real listener. A new seed
 * each run, so runs explore; FUZZ_SEED=<seed> replays one (the failure message names it).
 */
let server: FuzzServer
beforeAll(async () => {
  server = await startFuzzServer({ template: inject('demoTemplate') })
})
afterAll(async () => server?.close())

const seed = process.env.FUZZ_SEED === undefined ? Date.now() % 2 ** 31 : Number(process.env.FUZZ_SEED)

it('answers 800 generated requests without a 5xx, a transport error or an undocumented 4xx, and stays alive', async () => {
  const result = await runFuzz(server, { runs: 800, seed, timeLimitMs: 60_000 })
  const summary = formatSummary(result.tally, { seed, ...result })
  expect(result.tally.violations, summary).toEqual([])
  expect(result.tally.transportErrors, summary).toBe(0)
  expect(result.tally.serverErrors, summary).toBe(0)
  expect(result.alive, summary).toBe(true)
  // Every operation of the document and every extension was reached, and authorised code paths too (2xx).
  expect(result.operations, summary).toEqual(expect.arrayContaining(['get_tenant', 'validate_stt_provider', 'POST /imports/call-logs', 'GET /export/call-logs.csv']))
  expect(Object.keys(result.tally.byOperation).sort(), summary).toEqual([...result.operations, 'raw socket'].sort())
  expect(result.tally.byClass['2xx'] ?? 0, summary).toBeGreaterThan(100)
  expect(result.tally.requests, summary).toBeGreaterThanOrEqual(800)
}, 120_000)
