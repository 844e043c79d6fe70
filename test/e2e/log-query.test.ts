import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import type { ServeProcess } from '../helpers/cli'
import { collectErrors, screenshot } from '../helpers/browser'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * The explorer's query box in Chromium (issue 17, point 1): a typed query gives the rows the
 * service gives, a bad one says where and why inline, the help popover lists the language, the
 * query is the permalink, and an old `?q=` link keeps its results.
 */

let server: ServeProcess
let browser: Browser
let signInLink: string
let token: string

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken: token } = await startConsoleSession(`${tempDir()}/e2e-query.sqlite`))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const { query: trpc } = trpcHttp(() => server.url, () => token)
type Line = { id: string; message: string }
const search = (filter: Record<string, unknown>, limit = 10) => trpc<{ rows: Line[] }>('callLogs.search', { filter, limit }).then((p) => p.rows)

async function openLogs(hash = '#/logs'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.goto(`${server.url}/console/${hash}`)
  await page.getByTestId('query-box').waitFor()
  return { page, errors }
}

/** The query parameter of the view's URL (the hash route's search part). */
const urlQuery = (page: Page) => new URLSearchParams(page.url().split('?')[1] ?? '').get('query')

const visibleIds = (page: Page, n = 10) =>
  page.getByTestId('call-log-row').evaluateAll((els, count) => els.slice(0, count).map((e) => e.getAttribute('data-id')), n)

describe('the query box', () => {
  it('runs a typed query: the rows the service returns, substrings marked, the query in the URL', async () => {
    const { page, errors } = await openLogs()
    await page.getByTestId('call-log-row').first().waitFor()
    const query = 'level:error imeout OR "rate limit"'
    await page.getByLabel('Query', { exact: true }).fill(query)
    await expect.poll(() => urlQuery(page)).toBe(query)
    const expected = (await search({ query })).map((r) => r.id)
    expect(expected.length).toBeGreaterThan(0)
    await expect.poll(() => visibleIds(page)).toEqual(expected)
    const marks = await page.getByTestId('call-log-message').first().locator('mark').allInnerTexts()
    expect(marks.map((m) => m.toLowerCase())).toContain('imeout')
    await screenshot(page, 'log-query-rows')
    expect(await wcagViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a syntax error inline, with its column and a hint, and keeps the last good query', async () => {
    const { page, errors } = await openLogs(`#/logs?query=${encodeURIComponent('level:error')}`)
    const good = (await search({ query: 'level:error' })).map((r) => r.id)
    await expect.poll(() => visibleIds(page)).toEqual(good)
    await page.getByLabel('Query', { exact: true }).fill('level:error (imeout OR')
    const error = page.getByTestId('query-error')
    await error.waitFor()
    expect(await error.innerText()).toMatch(/Column 21: OR needs a term after it\. Add a term after OR, or remove it/)
    expect(await error.locator('mark').innerText()).toBe('OR')
    await expect.poll(() => page.getByLabel('Query', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    expect(urlQuery(page)).toBe('level:error')
    expect(await visibleIds(page)).toEqual(good)
    await screenshot(page, 'log-query-error')
    expect(await wcagViolations(page)).toEqual([])

    // Fixed, the error goes and the new query runs.
    await page.getByLabel('Query', { exact: true }).fill('level:error (imeout OR groq)')
    await expect.poll(() => error.count()).toBe(0)
    await expect.poll(() => visibleIds(page)).toEqual((await search({ query: 'level:error (imeout OR groq)' })).map((r) => r.id))
    expect(errors).toEqual([])
    await page.close()
  })

  it('opens a help popover whose examples go into the box', async () => {
    const { page, errors } = await openLogs()
    await page.getByRole('button', { name: 'Query help' }).click()
    const help = page.getByTestId('query-help')
    await help.waitFor()
    expect(await help.innerText()).toMatch(/details\.latency_ms>2000[\s\S]*@last 15m/)
    await screenshot(page, 'log-query-help')
    expect(await wcagViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Use details.latency_ms>2000' }).click()
    await expect.poll(() => page.getByLabel('Query', { exact: true }).inputValue()).toBe('details.latency_ms>2000')
    await expect.poll(() => urlQuery(page)).toBe('details.latency_ms>2000')
    expect(errors).toEqual([])
    await page.close()
  })

  it('reproduces a view from its permalink, and reads an old ?q= link as the same whole words', async () => {
    const query = '-level:debug (imeout OR retry*)'
    const { page, errors } = await openLogs(`#/logs?query=${encodeURIComponent(query)}`)
    expect(await page.getByLabel('Query', { exact: true }).inputValue()).toBe(query)
    await expect.poll(() => visibleIds(page)).toEqual((await search({ query })).map((r) => r.id))
    await page.close()

    const old = await openLogs('#/logs?q=timeout%20attempts')
    await expect.poll(() => old.page.getByLabel('Query', { exact: true }).inputValue()).toBe('"timeout" "attempts"')
    await expect.poll(() => old.page.url()).not.toMatch(/[?&]q=/)
    const before = (await search({ q: 'timeout attempts' })).map((r) => r.id)
    expect(before.length).toBeGreaterThan(0)
    await expect.poll(() => visibleIds(old.page)).toEqual(before)
    expect([...errors, ...old.errors]).toEqual([])
    await old.page.close()
  })
})
