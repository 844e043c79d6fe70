import { randomUUID } from 'node:crypto'
import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import { openConsolePage, type ConsoleSession, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'

/*
 * The explorer's live tail (issue 16 pt 3) in Chromium against `callscope serve`: lines stored
 * through the real import route show without a reload, the view pauses when scrolled away and
 * says how many lines came, and a click shows them.
 */

let session: ConsoleSession
let browser: Browser
let dbPath: string
let tenant: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-live.sqlite`
  session = await startConsoleSession(dbPath)
  browser = session.browser
  const db = new Database(dbPath, { readonly: true })
  tenant = db.prepare('select id from tenants order by id limit 1').pluck().get() as string
  db.close()
}, 90_000)
afterAll(() => session?.close())

/** Stores lines through the import route, as an upload from another tab or tool would. */
async function importLines(messages: string[], level = 'error', extra: Record<string, unknown> = {}): Promise<void> {
  const body = messages.map((message) => JSON.stringify({ id: randomUUID(), tenant_id: tenant, log_type: 'llm', log_level: level, message, timestamp: new Date().toISOString(), ...extra })).join('\n')
  const response = await fetch(`${session.server.url}/imports/call-logs?format=ndjson`, { method: 'POST', body, headers: { Authorization: `Bearer ${session.sessionToken}` } })
  expect(response.status).toBe(201)
}

const firstMessages = (page: Page, n: number) => page.getByTestId('call-log-message').evaluateAll((cells, count) => cells.slice(0, count).map((c) => c.textContent), n)

describe('live tail in the explorer', () => {
  it('shows new lines without a reload, pauses when scrolled away, and shows what came on a click', async () => {
    const { page, errors } = await openConsolePage(browser, session.signInLink, '#/logs?level=error&live=1', 'call-log-row', 700)
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Following new lines')
    expect(await page.getByTestId('live-switch').getAttribute('aria-pressed')).toBe('true')

    await importLines(['Live: LLM provider timed out', 'Live: مهلة المزود انتهت'])
    // Without a reload; how soon is measured by `npm run bench:live` (a timed test would only be flaky).
    await page.getByText('Live: مهلة المزود انتهت').waitFor({ timeout: 10_000 })
    expect(await firstMessages(page, 2)).toEqual(['Live: مهلة المزود انتهت', 'Live: LLM provider timed out'])
    await importLines(['Live: not an error'], 'info')
    await screenshot(page, 'live-tail-following')
    expect(await wcagViolations(page)).toEqual([])

    // Scrolled away: the rows stay put and a counter says what came meanwhile.
    await page.locator('.cs-logs-scroll').evaluate((el) => el.scrollTo({ top: 600 }))
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Paused while you read')
    await importLines(['Live: held back 1', 'Live: held back 2', 'Live: held back 3'])
    await expect.poll(() => page.getByTestId('new-lines').innerText()).toBe('3 new lines: show')
    expect(await page.getByText('Live: held back 1').count()).toBe(0)
    await screenshot(page, 'live-tail-paused')
    expect(await wcagViolations(page)).toEqual([])

    await page.getByTestId('new-lines').click()
    await expect.poll(() => firstMessages(page, 5)).toEqual(['Live: held back 3', 'Live: held back 2', 'Live: held back 1', 'Live: مهلة المزود انتهت', 'Live: LLM provider timed out'])
    expect(await page.locator('.cs-logs-scroll').evaluate((el) => el.scrollTop)).toBe(0)
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Following new lines')
    expect(await page.getByText('Live: not an error').count()).toBe(0)

    // Off: nothing more comes, and the URL no longer follows.
    await page.getByTestId('live-switch').click()
    await expect.poll(() => page.url()).not.toContain('live=1')
    await importLines(['Live: after stopping'])
    await page.reload()
    await page.getByTestId('call-log-row').first().waitFor()
    expect(await firstMessages(page, 1)).toEqual(['Live: after stopping'])
    expect(errors).toEqual([])
    await page.close()
  })

  it("grows a call's page as its lines are stored, and holds them while a turn is chosen", async () => {
    const db = new Database(dbPath, { readonly: true })
    const call = db.prepare("select id, tenant_id, ended_at from calls where status = 'completed' and conversation_id is not null order by started_at desc limit 1").get() as { id: string; tenant_id: string; ended_at: string }
    // Lines of the call's last seconds, as a webhook retry or a late recording would be.
    const late = (ms: number) => new Date(Date.parse(call.ended_at) + ms).toISOString()
    const lines = () => db.prepare('select count(*) from call_logs where call_id = ?').pluck().get(call.id) as number
    const { page, errors } = await openConsolePage(browser, session.signInLink, `#/calls/${call.id}`, 'call-links', 900)
    const explorerLink = page.getByTestId('call-explorer-link')
    await expect.poll(() => page.getByTestId('call-live-state').innerText()).toBe('Following new lines')
    const before = lines()
    expect(await explorerLink.innerText()).toBe(`${before} lines in the explorer`)

    await importLines(['Live on the call: webhook call.ended retried'], 'warning', { call_id: call.id, tenant_id: call.tenant_id, log_type: 'webhook', timestamp: late(3_000) })
    await page.getByText(`${before + 1} lines in the explorer`).waitFor({ timeout: 10_000 })

    // Reading a turn: new lines are counted, not shown, until asked for.
    await page.getByTestId('turn-select').first().click()
    await importLines(['Live on the call: late line 1', 'Live on the call: late line 2'], 'info', { call_id: call.id, tenant_id: call.tenant_id, log_type: 'call', timestamp: late(4_000) })
    await expect.poll(() => page.getByTestId('call-new-lines').innerText()).toBe('2 new lines: show')
    expect(await explorerLink.innerText()).toBe(`${before + 1} lines in the explorer`)
    await screenshot(page, 'call-page-live-held')
    expect(await wcagViolations(page)).toEqual([])
    await page.getByTestId('call-new-lines').click()
    await expect.poll(() => explorerLink.innerText()).toBe(`${before + 3} lines in the explorer`)
    expect(lines()).toBe(before + 3)
    db.close()
    expect(errors).toEqual([])
    await page.close()
  })
})
