/**
 * `npm run bench:live`: the "## Live tail" section of docs/benchmarks.md (issue 16 pt 5).
 *
 * On a copy of the large dataset served by `callscope serve`: 1,000 new call log lines a second
 * for 60 s, stored through the real import route in batches of 250 every 250 ms, while
 * - the explorer follows them in Debian's Chromium (`#/logs?live=1`): its JS heap (after a forced
 *   GC) and DOM node count sampled every 5 s, and the lag of the newest line shown (the time
 *   written into each line's message against the clock when the page shows it);
 * - a tRPC subscriber in this process (the console's own link: eventsource over SSE) counts every
 *   line it is sent, to show none is lost on the way; the store's own count shows none is lost there.
 */
import { randomUUID } from 'node:crypto'
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTRPCClient, httpSubscriptionLink } from '@trpc/client'
import BetterSqlite3 from 'better-sqlite3'
import { EventSource } from 'eventsource'
import type { AppRouter } from '../src-main/server/app-router'
import { launchBrowser } from '../test/helpers/browser'
import { startServe } from '../test/helpers/cli'
import { withSection } from './report-sections'

const root = join(import.meta.dirname, '..')
const largeDb = join(root, '.bench-data', 'large.sqlite')
const db = join(root, '.bench-data', 'live-tail.sqlite')
const TOKEN = 'bench-token'
const RATE = 1_000
const SECONDS = Number(process.env.LIVE_SECONDS ?? 60)
const BATCH_EVERY_MS = 250
const PREFIX = 'bench-live'

const remove = (path: string) => {
  for (const suffix of ['', '-wal', '-shm', '.key']) rmSync(`${path}${suffix}`, { force: true })
}
const median = (xs: number[]) => quantile(xs, 0.5)
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

async function main() {
  remove(db)
  copyFileSync(largeDb, db)
  const truth = new BetterSqlite3(db, { readonly: true })
  const tenant = truth.prepare('select id from tenants order by id limit 1').pluck().get() as string
  const storedBefore = truth.prepare('select count(*) from call_logs').pluck().get() as number
  const server = await startServe(['--db', db, '--no-seed'], { CALLSCOPE_TOKEN: TOKEN })
  const browser = await launchBrowser()
  try {
    // The subscriber that counts: every line of the bench, each once.
    const received = new Set<string>()
    let duplicates = 0
    const client = createTRPCClient<AppRouter>({
      links: [httpSubscriptionLink({ url: `${server.url}/trpc`, EventSource, eventSourceOptions: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, Authorization: `Bearer ${TOKEN}` } }) } })],
    })
    const subscription = client.callLogs.tail.subscribe({ filter: { q: PREFIX }, backlog: 0 }, {
      onData: (event) => {
        for (const line of event.data.lines) {
          if (received.has(line.id)) duplicates++
          received.add(line.id)
        }
      },
    })

    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    await page.addInitScript(`sessionStorage.setItem('callscope.token', ${JSON.stringify(TOKEN)})`)
    await page.goto(`${server.url}/console/#/logs?live=1`)
    await page.getByTestId('call-log-row').first().waitFor({ timeout: 60_000 })
    await page.getByText('Following new lines').waitFor({ timeout: 30_000 })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Performance.enable')
    const sampleMemory = async () => {
      await cdp.send('HeapProfiler.collectGarbage')
      const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN
      return { heap: metric('JSHeapUsedSize'), nodes: metric('Nodes') }
    }
    const baseline = await sampleMemory()
    const samples: Array<{ at: number; heap: number; nodes: number; lag: number | null }> = []
    const newestShownLag = async (): Promise<number | null> => {
      const text = (await page.getByTestId('call-log-message').first().textContent()) ?? ''
      const sent = /sent=(\d+)/.exec(text)?.[1]
      return sent ? Date.now() - Number(sent) : null
    }

    // The writer: a batch every 250 ms on an absolute schedule, so a slow batch does not lower the rate.
    let sent = 0
    let slowBatches = 0
    const perBatch = (RATE * BATCH_EVERY_MS) / 1000
    const started = performance.now()
    const batches = (SECONDS * 1000) / BATCH_EVERY_MS
    let nextSample = 5_000
    const lags: number[] = []
    for (let b = 0; b < batches; b++) {
      const due = started + b * BATCH_EVERY_MS
      const wait = due - performance.now()
      if (wait > 0) await sleep(wait)
      else slowBatches++
      const body = Array.from({ length: perBatch }, (_, i) =>
        JSON.stringify({ id: randomUUID(), tenant_id: tenant, log_type: 'llm', log_level: i % 10 === 0 ? 'error' : 'info', message: `${PREFIX} ${sent + i} sent=${Date.now()}`, timestamp: new Date().toISOString() }),
      ).join('\n')
      const response = await fetch(`${server.url}/imports/call-logs?format=ndjson`, { method: 'POST', body, headers: { Authorization: `Bearer ${TOKEN}` } })
      if (response.status !== 201) throw new Error(`import answered ${response.status}: ${await response.text()}`)
      sent += perBatch
      const lag = await newestShownLag()
      if (lag !== null) lags.push(lag)
      if (performance.now() - started >= nextSample) {
        samples.push({ at: Math.round((performance.now() - started) / 1000), ...(await sampleMemory()), lag })
        nextSample += 5_000
      }
    }
    const writeSeconds = (performance.now() - started) / 1000
    const deadline = Date.now() + 30_000
    while (received.size < sent && Date.now() < deadline) await sleep(100)
    subscription.unsubscribe()
    const stored = (truth.prepare('select count(*) from call_logs').pluck().get() as number) - storedBefore
    const shown = await page.getByTestId('call-log-count').innerText()
    await page.close()

    const heaps = samples.map((s) => s.heap)
    const section = `## Live tail

\`npm run bench:live\` (bench/live-tail.ts), ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, Debian's Chromium.
A copy of the large dataset (${storedBefore.toLocaleString('en-US')} call logs) served by \`callscope serve\`; ${RATE.toLocaleString('en-US')} new lines
a second for ${SECONDS} s, stored through \`POST /imports/call-logs\` in batches of ${perBatch} every ${BATCH_EVERY_MS} ms, while the explorer
follows in Chromium (\`#/logs?live=1\`) and a tRPC subscriber in the bench process (the console's own link) counts what it is sent.

| measure | value |
|---|---|
| lines sent / stored / received by the subscriber | ${sent.toLocaleString('en-US')} / ${stored.toLocaleString('en-US')} / ${received.size.toLocaleString('en-US')} (${duplicates} twice) |
| achieved write rate | ${Math.round(sent / writeSeconds).toLocaleString('en-US')} lines/s over ${writeSeconds.toFixed(1)} s (${slowBatches} of ${batches} batches started late) |
| newest line shown, lag from its creation (sampled after each batch) | p50 ${Math.round(median(lags))} ms, p90 ${Math.round(quantile(lags, 0.9))} ms, max ${Math.round(Math.max(...lags))} ms; ${lags.filter((l) => l <= 1000).length} of ${lags.length} samples within 1 s |
| page JS heap after GC: before following / at 10 s / at the end / max | ${mb(baseline.heap)} / ${mb(samples[1]?.heap ?? Number.NaN)} / ${mb(samples.at(-1)?.heap ?? Number.NaN)} / ${mb(Math.max(...heaps))} MB |
| page DOM nodes: before / max while following | ${baseline.nodes.toLocaleString('en-US')} / ${Math.max(...samples.map((s) => s.nodes)).toLocaleString('en-US')} |
| the page's count at the end | ${shown} |

Every 5 s: ${samples.map((s) => `${s.at} s ${mb(s.heap)} MB, ${s.nodes.toLocaleString('en-US')} nodes`).join('; ')}.
`
    console.log(section)
    const reportPath = join(root, 'docs', 'benchmarks.md')
    writeFileSync(reportPath, withSection(readFileSync(reportPath, 'utf8'), '## Live tail', section))
  } finally {
    truth.close()
    await browser.close()
    await server.stop()
    remove(db)
  }
}

await main()
