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
/** Lines by provider, most first, ties by value, lines without one last among equals: as the table ranks them. */
function byProvider(where = '1'): Truth[] {
  const db = groundTruth(dbPath)
  try {
    return db
      .prepare(`select json_extract(details, '$.provider') as value, count(*) as count, sum(log_level in ('error', 'critical')) as errors from call_logs where ${where} group by value order by count desc, value is null, value`)
      .all() as Truth[]
  } finally {
    db.close()
  }
}

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
})
