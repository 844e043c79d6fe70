import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { openConsolePage, startConsoleSession } from '../helpers/console-session'
import { pluckAll } from '../helpers/ground-truth'
import { tempDir } from '../helpers/temp-dir'

let server: ServeProcess
let browser: Browser
let signInLink: string
let dbPath: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-calls.sqlite`
  ;({ server, browser, signInLink } = await startConsoleSession(dbPath))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The demo store read directly (read-only): the ground truth the page is checked against. */
const truth = <T>(query: string, ...params: unknown[]): T[] => pluckAll<T>(dbPath, query, ...params)

const rowIds = (page: Page) => page.getByTestId('calls-table').locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-call-id')))

describe('calls page in Chromium', () => {
  it('lists every call newest first with counts, filters by a count, sorts by a header and pages on', async () => {
    const { page, errors } = await openConsolePage(browser, signInLink, '#/calls?period=all', 'calls-table')
    const total = truth<number>('select count(*) from calls')[0]!
    expect(await page.getByTestId('calls-count').innerText()).toBe(`${total.toLocaleString('en-US')} matching · 100 shown`)
    expect(await rowIds(page)).toEqual(truth<string>('select id from calls order by started_at desc, id desc limit 100'))
    await screenshot(page, 'calls')
    expect(await wcagViolations(page)).toEqual([])

    // The failed calls, from their count.
    const failed = truth<number>("select count(*) from calls where status = 'failed'")[0]!
    await page.getByTestId('calls-by-status').getByText(`failed · ${failed.toLocaleString('en-US')}`).click()
    await expect.poll(() => page.getByTestId('calls-count').innerText()).toBe(`${failed.toLocaleString('en-US')} matching · ${Math.min(100, failed)} shown`)
    expect(await rowIds(page)).toEqual(truth<string>("select id from calls where status = 'failed' order by started_at desc, id desc limit 100"))
    await screenshot(page, 'calls-failed')

    // Longest first, by the Duration header; again for shortest first.
    await page.getByTestId('sort-duration_ms').click()
    await expect.poll(() => rowIds(page)).toEqual(truth<string>("select id from calls where status = 'failed' order by coalesce(duration_ms, -1) desc, id desc limit 100"))
    expect(await page.locator('th[aria-sort="descending"]').innerText()).toBe('Duration')

    // Back to every call, then the next page.
    await page.getByTestId('calls-by-status').getByText(/^failed · /).click()
    await expect.poll(() => page.getByTestId('calls-count').innerText()).toBe(`${total.toLocaleString('en-US')} matching · 100 shown`)
    await page.getByTestId('calls-more').click()
    await expect.poll(async () => (await rowIds(page)).length).toBe(200)
    expect(await rowIds(page)).toEqual(truth<string>('select id from calls order by coalesce(duration_ms, -1) desc, id desc limit 200'))
    // A call opens its page (test/e2e/call-detail.test.ts goes on from there).
    const first = (await rowIds(page))[0]!
    await page.locator(`tr[data-call-id="${first}"] [data-testid="call-link"]`).click()
    await page.waitForURL(new RegExp(`#/calls/${first}$`))
    await page.getByTestId('call-waterfall').waitFor()
    expect(errors).toEqual([])
    await page.close()
  })
})
