import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { collectErrors, SCREENSHOT_DIR, screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { groundTruth } from '../helpers/ground-truth'
import { tempDir } from '../helpers/temp-dir'

/*
 * Count by in Chromium (issue 17 pt 4): a details key picked from the explorer's control, the
 * stacked chart and the top-N table with values equal to SQLite's own count of the store `serve`
 * has open, the CSV and PNG downloads, a group clicked filtering in, and the state in the URL.
 */

let server: ServeProcess
let browser: Browser
let signInLink: string
let dbPath: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-count-by.sqlite`
  ;({ server, browser, signInLink } = await startConsoleSession(dbPath))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

type Truth = { value: string | null; count: number; errors: number }
/** Lines by a details key, most first, ties by value, lines without one last among equals: as the table ranks them. */
function byKey(key: string, where = '1'): Truth[] {
  const db = groundTruth(dbPath)
  try {
    return db
      .prepare(`select json_extract(details, '$.${key}') as value, count(*) as count, sum(log_level in ('error', 'critical')) as errors from call_logs where ${where} group by value order by count desc, value is null, value`)
      .all() as Truth[]
  } finally {
    db.close()
  }
}
const byProvider = (where = '1') => byKey('provider', where)

const fmt = (n: number) => n.toLocaleString('en-US')
const pct = (n: number, of: number) => `${((n / of) * 100).toFixed(1)} %`
/** The table as shown: [group, lines, share, errors, error rate] per row. */
const table = (page: Page) =>
  page.getByTestId('count-by-row').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.replace(/^Filter in \S+ /, '') ?? '')))
const param = (page: Page, name: string) => new URLSearchParams(page.url().split('?')[1] ?? '').get(name)

async function openLogs(hash: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1100 }, acceptDownloads: true })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.goto(`${server.url}/console/${hash}`)
  await page.getByTestId('count-by-key').waitFor()
  return { page, errors }
}

describe('count by', () => {
  it('counts lines by a details key picked from the control: chart, table, CSV and PNG', async () => {
    const { page, errors } = await openLogs('#/logs')
    await page.getByTestId('call-log-row').first().waitFor()
    await page.getByTestId('count-by-key').click()
    await page.getByRole('option', { name: 'details.provider' }).click()
    await expect.poll(() => param(page, 'by')).toBe('details.provider')

    const truth = byProvider()
    const total = truth.reduce((n, t) => n + t.count, 0)
    const top = truth.slice(0, 5)
    const rest = truth.slice(5)
    expect(rest.length).toBeGreaterThan(0)
    const other = { count: rest.reduce((n, t) => n + t.count, 0), errors: rest.reduce((n, t) => n + t.errors, 0) }
    const row = (label: string, t: { count: number; errors: number }) => [label, fmt(t.count), pct(t.count, total), fmt(t.errors), pct(t.errors, t.count)]
    await expect.poll(() => table(page), { timeout: 15_000 }).toEqual([...top.map((t) => row(t.value ?? '(none)', t)), row('other', other)])
    // Five groups and other: six colours in the legend and six stacked series.
    await expect.poll(() => page.getByTestId('count-by-chart').locator('.recharts-bar-rectangle').count()).toBeGreaterThan(6)
    expect(await page.getByTestId('count-by-chart').locator('figcaption').innerText()).toMatch(new RegExp(`^Stacked bar chart: matching lines per .+ by details\\.provider, ${fmt(total)} in all, in 6 groups`))
    await screenshot(page, 'count-by-provider')
    expect(await wcagViolations(page)).toEqual([])

    const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('count-by-csv').click()])
    expect(csvDownload.suggestedFilename()).toMatch(/^call-logs-by-details\.provider-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = readFileSync((await csvDownload.path())!, 'utf8')
    const [tablePart, seriesPart] = csv.split('\r\n\r\n')
    const lines = tablePart!.split('\r\n')
    expect(lines[0]).toBe('details.provider,value,lines,share_pct,errors,error_rate_pct')
    expect(lines.slice(1, 7).map((l) => l.split(',').slice(0, 5))).toEqual([
      ...top.map((t) => [t.value ?? '(none)', t.value ?? '', String(t.count), String(Number(((t.count / total) * 100).toFixed(2))), String(t.errors)]),
      ['other', '', String(other.count), String(Number(((other.count / total) * 100).toFixed(2))), String(other.errors)],
    ])
    const series = seriesPart!.trim().split('\r\n')
    expect(series[0]).toBe(['bucket_start', ...top.map((t) => t.value ?? '(none)'), 'other'].join(','))
    // Every line is in one bucket of one column.
    expect(series.slice(1).reduce((n, l) => n + l.split(',').slice(1).reduce((m, c) => m + Number(c), 0), 0)).toBe(total)

    const [pngDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('count-by-png').click()])
    expect(pngDownload.suggestedFilename()).toMatch(/\.png$/)
    const png = readFileSync((await pngDownload.path())!)
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    // IHDR: width and height of the image, twice the chart's size on the page.
    const chartBox = (await page.getByTestId('count-by-chart').locator('svg.recharts-surface').boundingBox())!
    expect(png.readUInt32BE(16)).toBe(Math.round((chartBox.width + 32) * 2))
    expect(png.readUInt32BE(20)).toBeGreaterThan(chartBox.height * 2)
    expect(png.length).toBeGreaterThan(20_000)
    // Kept beside the screenshots, to be looked at.
    writeFileSync(join(SCREENSHOT_DIR, 'count-by-download.png'), png)
    expect(errors).toEqual([])
    await page.close()
  })

  it('filters in to a group by a click, keeps the count across a reload, and follows top N', async () => {
    const { page, errors } = await openLogs('#/logs?level=error,critical&by=details.provider&top=3')
    const truth = byProvider("log_level in ('error', 'critical')")
    const total = truth.reduce((n, t) => n + t.count, 0)
    await expect.poll(() => table(page).then((rows) => rows.map((r) => r.slice(0, 2))), { timeout: 15_000 }).toEqual([
      ...truth.slice(0, 3).map((t) => [t.value ?? '(none)', fmt(t.count)]),
      ['other', fmt(truth.slice(3).reduce((n, t) => n + t.count, 0))],
    ])
    // Errors only: every line is an error line.
    expect((await table(page)).every((r) => r[4] === '100.0 %')).toBe(true)
    expect(await page.getByTestId('count-by-table').locator('caption').innerText()).toContain(`${fmt(total)} matching lines by details.provider`)
    await screenshot(page, 'count-by-errors-top3')

    const second = truth.find((t, i) => i > 0 && t.value !== null)!
    await page.getByRole('button', { name: `Filter in details.provider ${second.value}` }).click()
    await expect.poll(() => param(page, 'query')).toBe(`details.provider:"${second.value}"`)
    await expect.poll(() => table(page).then((rows) => rows.map((r) => r.slice(0, 2))), { timeout: 15_000 }).toEqual([[second.value, fmt(second.count)]])

    await page.reload()
    await page.getByTestId('count-by-row').first().waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('count-by-key').inputValue()).toBe('details.provider')
    expect(await page.getByTestId('count-by-top').inputValue()).toBe('Top 3')
    await page.getByRole('button', { name: 'Close count' }).click()
    await expect.poll(() => param(page, 'by')).toBeNull()
    await expect.poll(() => page.getByTestId('count-by-table').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a count that reads the lines as it goes: newest slices first, marked partial, then whole', async () => {
    const { page, errors } = await openLogs('#/logs')
    await page.getByTestId('call-log-row').first().waitFor()
    // Every text the status line shows, as it changes.
    await page.evaluate(`(() => {
      const seen = (window.countByStatuses = [])
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="count-by-status"]')?.textContent ?? ''
        if (text && seen.at(-1) !== text) seen.push(text)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })()`)
    // The first stream of answers is cut after its first two (partial) ones, and the client's
    // reconnection held until the partial state has been looked at: then the whole count runs.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let calls = 0
    await page.route('**/trpc/callLogs.countByProgress**', async (route) => {
      if (++calls > 1) {
        await released
        return route.continue()
      }
      const whole = await (await route.fetch()).text()
      const events = whole.split('\n\n').filter((e) => e.trim())
      const answers = events.filter((e) => /data: \{"answer"/.test(e))
      expect(answers.length).toBeGreaterThan(2)
      const kept = [...events.filter((e) => /event: connected/.test(e)), ...answers.slice(0, 2)]
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body: `${kept.join('\n\n')}\n\n` })
    })
    await page.getByTestId('count-by-key').click()
    await page.getByRole('option', { name: 'details.language' }).click()
    await expect.poll(() => param(page, 'by')).toBe('details.language')

    const badge = page.getByTestId('count-by-partial')
    await badge.waitFor()
    expect(await badge.innerText()).toMatch(/^Partial, \d{1,2}% scanned$/i)
    expect(await page.getByTestId('count-by-csv').isDisabled()).toBe(true)
    const partialTotal = Number((await page.getByTestId('count-by-table').locator('caption').innerText()).match(/([\d,]+) matching lines/)![1]!.replace(/,/g, ''))
    const truth = byKey('language')
    const total = truth.reduce((n, t) => n + t.count, 0)
    expect(partialTotal).toBeGreaterThan(0)
    expect(partialTotal).toBeLessThan(total)
    await screenshot(page, 'count-by-partial')
    expect(await wcagViolations(page)).toEqual([])

    release()
    await badge.waitFor({ state: 'detached', timeout: 15_000 })
    const top = truth.slice(0, 5)
    await expect.poll(() => table(page).then((rows) => rows.map((r) => r.slice(0, 2))), { timeout: 15_000 }).toEqual([
      ...top.map((t) => [t.value ?? '(none)', fmt(t.count)]),
      ...(truth.length > 5 ? [['other', fmt(truth.slice(5).reduce((n, t) => n + t.count, 0))]] : []),
    ])
    expect(await page.getByTestId('count-by-csv').isDisabled()).toBe(false)
    const statuses = (await page.evaluate('window.countByStatuses')) as string[]
    const partials = statuses.filter((t) => /^Counting by details\.language: the newest \d+% of the range counted/.test(t))
    // The two answers of the cut stream, then the whole count's from its start: each run grows.
    const shares = partials.map((t) => Number(t.match(/newest (\d+)%/)![1]))
    expect(shares.length).toBeGreaterThanOrEqual(4)
    const [cut, whole] = [shares.slice(0, 2), shares.slice(2)]
    for (const run of [cut, whole]) expect(run).toEqual([...new Set(run)].sort((a, b) => a - b))
    expect(whole[0]).toBe(cut[0])
    expect(statuses.at(-1)).toMatch(new RegExp(`^${fmt(total)} lines per `))
    await screenshot(page, 'count-by-complete')
    expect(errors).toEqual([])
    await page.close()
  })

  it('keeps count by in a saved view, and opens it again with its key and N', async () => {
    const { page, errors } = await openLogs('#/logs?level=error,critical&by=details.provider&top=3')
    await page.getByTestId('count-by-row').first().waitFor({ timeout: 15_000 })
    await page.getByTestId('saved-views-button').click()
    await page.getByTestId('save-view').click()
    await page.getByTestId('save-view-name').fill('Errors by provider')
    await page.getByTestId('save-view-submit').click()
    await expect.poll(() => page.getByTestId('current-view').innerText()).toBe('View: Errors by provider')
    await page.close()

    // A fresh page on the bare explorer: no count until the view is opened from the list.
    const fresh = await openLogs('#/logs')
    await fresh.page.getByTestId('call-log-row').first().waitFor()
    expect(await fresh.page.getByTestId('count-by-panel').count()).toBe(0)
    await fresh.page.getByTestId('saved-views-button').click()
    await fresh.page.getByRole('menuitem', { name: 'Errors by provider' }).click()
    await expect.poll(() => [param(fresh.page, 'by'), param(fresh.page, 'top'), param(fresh.page, 'level')]).toEqual(['details.provider', '3', 'error,critical'])
    const truth = byProvider("log_level in ('error', 'critical')")
    await expect.poll(() => table(fresh.page).then((rows) => rows.map((r) => r.slice(0, 2))), { timeout: 15_000 }).toEqual([
      ...truth.slice(0, 3).map((t) => [t.value ?? '(none)', fmt(t.count)]),
      ['other', fmt(truth.slice(3).reduce((n, t) => n + t.count, 0))],
    ])
    expect(await fresh.page.getByTestId('count-by-key').inputValue()).toBe('details.provider')
    expect(await fresh.page.getByTestId('count-by-top').inputValue()).toBe('Top 3')
    await expect.poll(() => fresh.page.getByTestId('current-view').innerText()).toBe('View: Errors by provider')
    await screenshot(fresh.page, 'count-by-saved-view')
    expect(errors).toEqual([])
    expect(fresh.errors).toEqual([])
    await fresh.page.close()
  })
})
