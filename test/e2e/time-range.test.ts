import { randomUUID } from 'node:crypto'
import Database from 'better-sqlite3'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { collectErrors, screenshot } from '../helpers/browser'
import { type ConsoleSession, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * Time in the explorer (issue 17, point 3) in Chromium set to New York: "Last 24 hours" as a
 * relative link, local time shown and remembered, a drag on the histogram zooming in to instants,
 * Zoom out and back to the preset; rows checked against the service's own answers. The demo data
 * is anchored days back (2026-11-20), so lines at known distances from now are imported first.
 */

const ZONE = 'America/New_York'
let session: ConsoleSession
let browser: Browser
let context: BrowserContext
let tenant: string
const { query: trpc } = trpcHttp(() => session.server.url, () => session.sessionToken)
const MINUTES_AGO = [10, 40, 180, 20 * 60, 30 * 60]
const message = (minutes: number) => `Time test: ${minutes} minutes ago`
/** Only the imported lines: the demo data's own times depend on when the template was seeded. */
const QUERY = '"Time test"'
const Q = `query=${encodeURIComponent(QUERY)}`

beforeAll(async () => {
  const dbPath = `${tempDir()}/e2e-time.sqlite`
  session = await startConsoleSession(dbPath)
  browser = session.browser
  const db = new Database(dbPath, { readonly: true })
  tenant = db.prepare('select id from tenants order by id limit 1').pluck().get() as string
  db.close()
  const now = Date.now()
  const body = MINUTES_AGO.map((m) => JSON.stringify({ id: randomUUID(), tenant_id: tenant, log_type: 'llm', log_level: 'warning', message: message(m), timestamp: new Date(now - m * 60_000).toISOString() })).join('\n')
  const response = await fetch(`${session.server.url}/imports/call-logs?format=ndjson`, { method: 'POST', body, headers: { Authorization: `Bearer ${session.sessionToken}` } })
  expect(response.status).toBe(201)
  context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, timezoneId: ZONE, reducedMotion: 'reduce' })
  // A step that cannot happen fails with what it waited for, before the test's own timeout.
  context.setDefaultTimeout(10_000)
}, 90_000)
afterAll(async () => {
  await context?.close()
  await session?.close()
})

type Row = { id: string; timestamp: string; message: string }
const search = (filter: Record<string, unknown>) => trpc<{ rows: Row[] }>('callLogs.search', { filter: { query: QUERY, ...filter }, limit: 200 }).then((p) => p.rows)
const params = (page: Page) => new URLSearchParams(page.url().split('?')[1] ?? '')
const shownRows = (page: Page) =>
  page.getByTestId('call-log-row').evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-id'), time: e.querySelector('[role=cell]')?.textContent ?? '' })))
const nyTime = (iso: string) => {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(new Date(iso)).map((x) => [x.type, x.value]))
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${iso.slice(20, 23)}`
}
const nyOffset = () => (new Intl.DateTimeFormat('en-US', { timeZone: ZONE, timeZoneName: 'longOffset' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')!.value.replace('GMT', 'UTC'))

async function openLogs(hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage()
  const errors = collectErrors(page)
  await page.goto(session.signInLink)
  await page.getByTestId('signed-in-as').waitFor({ timeout: 10_000 })
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`)
  await page.getByTestId('call-log-row').first().waitFor({ timeout: 10_000 })
  return { page, errors }
}

/** The chart's plot area, where a drag selects buckets. */
const plotBox = async (page: Page) => (await page.getByTestId('call-log-histogram').locator('.recharts-cartesian-grid').boundingBox())!

describe('time in the explorer', () => {
  it('picks the last 24 hours, shows local time, zooms in by a drag, out again and back to the preset', async () => {
    const { page, errors } = await openLogs(`#/logs?${Q}`)
    await expect.poll(() => page.getByRole('columnheader').first().innerText()).toBe('Time (UTC)')

    // The preset: a relative link, and the rows the service gives for it.
    await page.getByText('24 h', { exact: true }).click()
    await expect.poll(() => params(page).get('from')).toBe('now-24h')
    expect(params(page).get('to')).toBeNull()
    const day = await search({ from: 'now-24h' })
    expect(day.map((r) => r.message)).toEqual([10, 40, 180, 1200].map(message))
    await expect.poll(async () => (await shownRows(page)).map((r) => r.id)).toEqual(day.map((r) => r.id))
    expect((await shownRows(page))[0]!.time).toBe(day[0]!.timestamp.replace('T', ' ').replace('Z', ''))
    expect(await page.getByRole('radio', { name: '24 h' }).isChecked()).toBe(true)

    // Local time: the table, the labels and the chart say New York; a reload keeps the choice.
    const zone = `${ZONE}, ${nyOffset()}`
    await page.getByText(`Local (${zone})`).click()
    await expect.poll(() => page.getByRole('columnheader').first().innerText()).toBe(`Time (${zone})`)
    expect((await shownRows(page)).map((r) => r.time)).toEqual(day.map((r) => nyTime(r.timestamp)))
    await expect.poll(() => page.getByTestId('histogram-caption').innerText()).toContain(`(${zone})`)
    expect(await page.getByLabel(`From (${ZONE})`).count()).toBe(1)
    await page.reload()
    await page.getByTestId('call-log-row').first().waitFor()
    await expect.poll(() => page.getByRole('columnheader').first().innerText()).toBe(`Time (${zone})`)
    expect(await page.getByRole('radio', { name: `Local (${zone})` }).isChecked()).toBe(true)
    await page.getByTestId('call-log-histogram').locator('.recharts-surface').first().waitFor()
    await screenshot(page, 'time-last-24h-local')
    expect(await wcagViolations(page)).toEqual([])

    // The drag: from 80% of the plot to its right edge, the last ~5 hours; the URL holds instants.
    const box = await plotBox(page)
    const y = box.y + box.height / 2
    await page.mouse.move(box.x + box.width * 0.8, y)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.9, y, { steps: 5 })
    await page.mouse.move(box.x + box.width - 2, y, { steps: 5 })
    expect(await page.getByTestId('call-log-histogram').locator('.recharts-reference-area').count()).toBe(1)
    await screenshot(page, 'time-dragging')
    await page.mouse.up()
    await expect.poll(() => params(page).get('from')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/)
    const from = params(page).get('from')!
    const to = params(page).get('to')!
    expect(to).toMatch(/:59\.999Z$/)
    const span = Date.parse(to) - Date.parse(from)
    expect(span).toBeGreaterThan(3 * 3600_000)
    expect(span).toBeLessThan(6 * 3600_000)
    expect(Date.now() - Date.parse(to)).toBeLessThan(30 * 60_000)
    const zoomed = await search({ from, to })
    expect(zoomed.map((r) => r.message)).toEqual([10, 40, 180].map(message))
    await expect.poll(async () => (await shownRows(page)).map((r) => r.id)).toEqual(zoomed.map((r) => r.id))
    await expect.poll(() => page.getByLabel(`From (${ZONE})`).inputValue()).toBe(nyTime(from).slice(0, 16))
    expect(await page.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true)
    await screenshot(page, 'time-zoomed-in')
    expect(await wcagViolations(page)).toEqual([])

    // Zoom out: twice the span, around the same centre.
    await page.getByRole('button', { name: 'Zoom out' }).click()
    await expect.poll(() => params(page).get('from')).not.toBe(from)
    const wider = { from: Date.parse(params(page).get('from')!), to: Date.parse(params(page).get('to')!) }
    // To the millisecond: the span ends on …59.999, so its centre falls on a half millisecond.
    expect(Math.abs(wider.to - wider.from - 2 * span)).toBeLessThanOrEqual(1)
    expect(Math.abs((wider.to + wider.from) / 2 - (Date.parse(to) + Date.parse(from)) / 2)).toBeLessThanOrEqual(1)

    // Back to the preset, relative again.
    await page.getByRole('button', { name: 'Back to last 24 hours' }).click()
    await expect.poll(() => params(page).get('from')).toBe('now-24h')
    expect(params(page).get('to')).toBeNull()
    await expect.poll(async () => (await shownRows(page)).length).toBe(day.length)

    // The drawer: the record's time in New York, and what is stored.
    await page.getByTestId('call-log-row').first().click()
    await expect.poll(() => page.getByTestId('details-timestamp').innerText()).toBe(`${nyTime(day[0]!.timestamp)} (${zone})\nstored as ${day[0]!.timestamp}`)
    await screenshot(page, 'time-details-local')
    expect(await wcagViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('fixes a preset with Custom, reads From typed in local time as that instant, and keeps relative bounds relative in the export', async () => {
    const { page, errors } = await openLogs(`#/logs?${Q}&from=now-7d`)
    expect(await page.getByRole('radio', { name: '7 d' }).isChecked()).toBe(true)
    // Custom: the preset becomes the instants it covers now, to edit, and From takes the keys.
    const before = Date.now()
    await page.getByText('Custom', { exact: true }).click()
    await expect.poll(() => params(page).get('to')).toMatch(/^\d{4}-.*Z$/)
    const custom = { from: Date.parse(params(page).get('from')!), to: Date.parse(params(page).get('to')!) }
    expect(custom.to - custom.from).toBe(7 * 86_400_000)
    expect(custom.to).toBeGreaterThanOrEqual(before)
    const fromBox = page.getByLabel(`From (${ZONE})`)
    await expect.poll(() => fromBox.evaluate((el) => el === el.ownerDocument.activeElement)).toBe(true)
    await expect.poll(() => page.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true)
    await fromBox.fill('2026-11-20 06:30')
    await fromBox.press('Enter')
    // 06:30 in New York in November (UTC-5) is 11:30 UTC.
    await expect.poll(() => params(page).get('from')).toBe('2026-11-20T11:30:00.000Z')
    // The page has drawn the new range (a navigation renders in a transition, after the URL changed).
    await expect.poll(() => page.getByRole('radio', { name: 'Custom' }).isChecked()).toBe(true)
    await fromBox.fill('yesterday')
    await fromBox.press('Enter')
    await page.getByText('Write a date (2026-11-20), a time (2026-11-20 09:30) or now-15m').waitFor()
    expect(params(page).get('from')).toBe('2026-11-20T11:30:00.000Z')

    // The export route reads the view's parameters, the relative bound resolved at its read.
    const exported = await fetch(`${session.server.url}/export/call-logs.ndjson?${Q}&from=now-1h`, { headers: { Authorization: `Bearer ${session.sessionToken}` } })
    expect(exported.status).toBe(200)
    const lines = (await exported.text()).trim().split('\n').map((l) => JSON.parse(l) as Row)
    expect(lines.map((l) => l.message)).toEqual([10, 40].map(message))
    // The demo data too, unfiltered: the export's lines are the search's, both resolved at their read.
    const all = await fetch(`${session.server.url}/export/call-logs.ndjson?from=now-1h`, { headers: { Authorization: `Bearer ${session.sessionToken}` } })
    const ids = (await all.text()).trim().split('\n').map((l) => (JSON.parse(l) as Row).id)
    expect(ids).toEqual((await trpc<{ rows: Row[] }>('callLogs.search', { filter: { from: 'now-1h' }, limit: 500 })).rows.map((r) => r.id))
    const bad = await fetch(`${session.server.url}/export/call-logs.ndjson?from=now-1h&to=now-2h`, { headers: { Authorization: `Bearer ${session.sessionToken}` } })
    expect(bad.status).toBe(422)
    expect(errors).toEqual([])
    await page.close()
  })
})
