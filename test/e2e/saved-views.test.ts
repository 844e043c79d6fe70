import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { collectErrors, screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * Saved views, permalinks and the history of queries (issue 17 pt 5) in Chromium: a view built by
 * hand (query, relative range, a details facet key, columns, a zone), saved, then opened in fresh
 * tabs from its link and from the saved views list, every part of it checked, and the rows against
 * the service's own answer; the recent queries rerun; a bad link; renaming, updating, deleting.
 */

// Each test walks a whole scenario (a view built, saved, reopened in fresh tabs; ten queries and a
// reload): 10–20 s alone, past 30 s when the whole suite runs beside it on 2 cores.
vi.setConfig({ testTimeout: 90_000 })

let server: ServeProcess
let browser: Browser
let signInLink: string
let token: string

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken: token } = await startConsoleSession(`${tempDir()}/e2e-views.sqlite`))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const { query: trpc } = trpcHttp(() => server.url, () => token)
type Line = { id: string; details: Record<string, unknown> }
const search = (filter: Record<string, unknown>, limit = 10) => trpc<{ rows: Line[] }>('callLogs.search', { filter, limit }).then((p) => p.rows)
type View = { id: string; name: string; description: string | null; state: Record<string, unknown> }
const views = async () => ((await (await fetch(`${server.url}/views`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { views: View[] }).views

const NY = 'America/New_York'
const nyOffset = () => new Intl.DateTimeFormat('en-US', { timeZone: NY, timeZoneName: 'longOffset' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')!.value.replace('GMT', 'UTC')

const contexts: BrowserContext[] = []
/** A fresh context (its own storage, a zone of its own), signed in, at `hash`, once the table shows. */
async function openLogs(hash: string, timezoneId = 'Asia/Tokyo', link = signInLink): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 }, timezoneId, reducedMotion: 'reduce' })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  contexts.push(context)
  const page = await context.newPage()
  // A step that cannot happen fails at that step, not at the test's time limit.
  page.setDefaultTimeout(20_000)
  const errors = collectErrors(page)
  await page.goto(link)
  await page.getByTestId('signed-in-as').waitFor()
  await page.goto(hash.startsWith('http') ? hash : `${server.url}/console/${hash}`)
  await page.getByTestId('call-log-table').waitFor()
  return { page, errors }
}
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {})
})

const params = (page: Page) => new URLSearchParams(page.url().split('?')[1] ?? '')
const headers = (page: Page) => page.getByRole('columnheader').allInnerTexts()
const visibleIds = (page: Page, n = 10) => page.getByTestId('call-log-row').evaluateAll((els, count) => els.slice(0, count).map((e) => e.getAttribute('data-id')), n)
/** The text of one column's cells in the first rows. */
const columnCells = (page: Page, column: number, n = 10) =>
  page.getByTestId('call-log-row').evaluateAll((els, [c, count]) => els.slice(0, count).map((e) => e.querySelectorAll('[role=cell]')[c]?.textContent ?? ''), [column, n] as const)
const queryBox = (page: Page) => page.getByLabel('Query', { exact: true })

const QUERY = 'level>=warning -type:webhook'
const FILTER = { query: QUERY, from: 'now-7d' }
const COLUMNS = () => [`Time (${NY}, ${nyOffset()})`, 'Level', 'Type', 'Message', 'Agent', 'details.provider']

/** Every part of the view built in the first test, as a page opened from its link or the list shows it. */
async function expectViewRestored(page: Page): Promise<void> {
  await expect.poll(() => queryBox(page).inputValue()).toBe(QUERY)
  expect(await page.getByRole('radio', { name: '7 d' }).isChecked()).toBe(true)
  await expect.poll(() => headers(page)).toEqual(COLUMNS())
  // The zone of the link, in a tab whose own zone is Tokyo.
  expect(await page.getByRole('radio', { name: `${NY}, ${nyOffset()}` }).isChecked()).toBe(true)
  expect(await page.getByTestId('details-key').inputValue()).toMatch(/^details\.provider( \([\d,]+\))?$/)
  await page.getByTestId('details-note').waitFor()
  const truth = await search(FILTER)
  await expect.poll(() => visibleIds(page)).toEqual(truth.map((r) => r.id))
  expect(await columnCells(page, 5)).toEqual(truth.map((r) => (r.details.provider === undefined ? '—' : String(r.details.provider))))
}

describe('saved views and permalinks', () => {
  it('builds a view, saves it, and opens it whole from its link and from the saved views', async () => {
    const { page, errors } = await openLogs('#/logs', NY)
    await queryBox(page).fill(QUERY)
    await queryBox(page).press('Enter')
    await page.getByText('7 d', { exact: true }).click()
    await expect.poll(() => params(page).get('from')).toBe('now-7d')
    await page.getByTestId('details-key').click()
    await page.getByRole('option', { name: /^details\.provider/ }).click()
    await page.getByTestId('details-note').waitFor()
    // Columns: the call hidden, details.provider added.
    await page.getByTestId('column-chooser').click()
    await page.getByRole('checkbox', { name: 'Call' }).click()
    await expect.poll(() => page.getByRole('checkbox', { name: 'Call' }).isChecked()).toBe(false)
    await page.getByTestId('details-column-key').fill('provider')
    await page.getByRole('button', { name: 'Add', exact: true }).click()
    await page.keyboard.press('Escape')
    await page.getByText(`Local (${NY}, ${nyOffset()})`).click()
    await expect.poll(() => headers(page)).toEqual(COLUMNS())
    expect(Object.fromEntries(params(page))).toEqual({ query: QUERY, from: 'now-7d', facet: 'provider', cols: 'time,level,type,message,agent,details.provider', tz: NY })
    await screenshot(page, 'views-built')
    expect(await wcagViolations(page)).toEqual([])

    // The link: the whole state, read back from the clipboard and from the field beside.
    await page.getByTestId('copy-link').click()
    await page.getByTestId('copied-link').waitFor()
    const link = await page.getByTestId('copied-link-text').inputValue()
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link)
    expect(link).toBe(`${server.url}/console/#/logs?${new URLSearchParams({ query: QUERY, from: 'now-7d', cols: 'time,level,type,message,agent,details.provider', facet: 'provider', tz: NY })}`)
    await screenshot(page, 'views-copied-link')
    await page.keyboard.press('Escape')

    // Saved under a name: the store holds the same state, and the page names the view.
    await page.getByTestId('saved-views-button').click()
    await page.getByTestId('save-view').click()
    await page.getByTestId('save-view-name').fill('Warnings this week')
    await page.getByTestId('save-view-description').fill('Everything but webhooks')
    await screenshot(page, 'views-save-dialog')
    expect(await wcagViolations(page)).toEqual([])
    await page.getByTestId('save-view-submit').click()
    await expect.poll(() => page.getByTestId('current-view').innerText()).toBe('View: Warnings this week')
    expect(await views()).toEqual([
      expect.objectContaining({ name: 'Warnings this week', description: 'Everything but webhooks', state: { query: QUERY, from: 'now-7d', cols: ['time', 'level', 'type', 'message', 'agent', 'details.provider'], facet: 'provider', tz: NY } }),
    ])
    expect(errors).toEqual([])

    // A fresh tab in another zone, from the link.
    const fromLink = await openLogs(link)
    await expectViewRestored(fromLink.page)
    await expect.poll(() => fromLink.page.getByTestId('current-view').innerText()).toBe('View: Warnings this week')
    await screenshot(fromLink.page, 'views-opened-from-link')
    expect(fromLink.errors).toEqual([])

    // A fresh tab at the plain explorer, from the saved views.
    const fromList = await openLogs('#/logs')
    await fromList.page.getByTestId('saved-views-button').click()
    await fromList.page.getByTestId('saved-views-menu').waitFor()
    await screenshot(fromList.page, 'views-menu')
    expect(await wcagViolations(fromList.page)).toEqual([])
    await fromList.page.getByRole('menuitem', { name: 'Warnings this week' }).click()
    await expectViewRestored(fromList.page)
    // Back returns to the view that was there before.
    await fromList.page.goBack()
    await expect.poll(() => fromList.page.url()).toMatch(/#\/logs$/)
    expect(fromList.errors).toEqual([])
  })

  it('lists the last queries, newest first and each once, and reruns one from the keyboard', async () => {
    const { page, errors } = await openLogs('#/logs')
    const run = async (query: string) => {
      await queryBox(page).fill(query)
      await queryBox(page).press('Enter')
      await expect.poll(() => params(page).get('query')).toBe(query)
    }
    for (const q of ['level:error', 'imeout', 'type:llm', 'level:error']) await run(q)
    // ↓ in the box opens the list; the arrows move, Enter reruns.
    await queryBox(page).focus()
    await page.keyboard.press('ArrowDown')
    await page.getByTestId('query-history').waitFor()
    await expect.poll(() => page.getByTestId('query-history-item').allInnerTexts()).toEqual(['level:error', 'type:llm', 'imeout'])
    await screenshot(page, 'views-query-history')
    expect(await wcagViolations(page)).toEqual([])
    // The keys are in the list at once: on its newest query, then the next one down.
    await expect.poll(() => page.evaluate(`document.activeElement?.textContent`)).toBe('level:error')
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(`document.activeElement?.textContent`)).toBe('type:llm')
    await page.keyboard.press('Enter')
    await expect.poll(() => params(page).get('query')).toBe('type:llm')
    expect(await queryBox(page).inputValue()).toBe('type:llm')
    await expect.poll(() => visibleIds(page)).toEqual((await search({ query: 'type:llm' })).map((r) => r.id))
    // The keys are back in the box; Escape closes the list and gives them back too.
    const focusedTestId = () => page.evaluate(`document.activeElement?.getAttribute('data-testid')`)
    await expect.poll(focusedTestId).toBe('query-input')
    await page.keyboard.press('ArrowDown')
    await page.getByTestId('query-history').waitFor()
    await expect.poll(() => page.evaluate(`document.activeElement?.textContent`)).toBe('type:llm')
    await page.keyboard.press('Escape')
    await page.getByTestId('query-history').waitFor({ state: 'hidden' })
    await expect.poll(focusedTestId).toBe('query-input')
    expect(params(page).get('query')).toBe('type:llm')

    // Kept across a reload (this console's storage), then cleared.
    await page.reload()
    await page.getByTestId('call-log-table').waitFor()
    await page.getByTestId('query-history-button').click()
    await expect.poll(() => page.getByTestId('query-history-item').allInnerTexts()).toEqual(['type:llm', 'level:error', 'imeout'])
    await page.getByTestId('query-history-clear').click()
    await page.getByTestId('query-history-button').click()
    await page.getByText('Queries you run show here.').waitFor()
    expect(await page.getByTestId('query-history-item').count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('opens the good part of a bad link and says what it left out', async () => {
    const { page, errors } = await openLogs('#/logs?level=error,fatal&cols=time,colour,message&agent=agent_7&tz=Mars/Olympus&bogus=1')
    await page.getByTestId('link-notice').waitFor()
    expect(await page.getByTestId('link-notice').locator('li').allInnerTexts()).toEqual([
      'level=fatal: Expected a log level: debug, info, warning, error, critical',
      'cols=colour: Expected a column: time, level, type, tenant, agent, call, message or details.<key>',
      'agent=agent_7: Input should be a valid UUID, invalid character: found `g` at 2',
      'tz=Mars/Olympus: Expected UTC or an IANA time zone (Europe/Paris)',
      'bogus=1: Not a parameter of the explorer',
    ])
    await expect.poll(() => Object.fromEntries(params(page))).toEqual({ level: 'error', cols: 'time,message' })
    expect(await headers(page)).toEqual(['Time (UTC)', 'Message'])
    await expect.poll(() => visibleIds(page)).toEqual((await search({ levels: ['error'] })).map((r) => r.id))
    await screenshot(page, 'views-bad-link')
    expect(await wcagViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Dismiss' }).click()
    expect(await page.getByTestId('link-notice').count()).toBe(0)
    expect(errors).toEqual([])
  })

  it('refuses a name another view has, renames, updates with the current view and deletes after asking', async () => {
    const { page, errors } = await openLogs('#/logs?level=error')
    const before = await views()
    const save = async (name: string) => {
      await page.getByTestId('saved-views-button').click()
      await page.getByTestId('save-view').click()
      await page.getByTestId('save-view-name').fill(name)
      await page.getByTestId('save-view-submit').click()
    }
    await save('Errors')
    await expect.poll(() => page.getByTestId('current-view').innerText()).toBe('View: Errors')
    await save('  ERRORS ')
    await page.getByText('A view named "Errors" already exists: choose another name, or update that view').waitFor()
    await screenshot(page, 'views-save-conflict')
    expect((await views()).length).toBe(before.length + 1)
    await page.keyboard.press('Escape')

    // The view changes: a query; then the saved one is brought up to date, renamed, deleted.
    await queryBox(page).fill('imeout')
    await queryBox(page).press('Enter')
    await expect.poll(() => params(page).get('query')).toBe('imeout')
    await expect.poll(() => page.getByTestId('current-view').innerText()).toBe('')
    await page.getByTestId('saved-views-button').click()
    await page.getByTestId('manage-views-item').click()
    await page.getByTestId('manage-views').waitFor()
    await page.getByRole('button', { name: 'Update with current view: Errors' }).click()
    await expect.poll(() => page.getByTestId('manage-views-status').innerText()).toBe('“Errors” now holds the current view.')
    expect((await views()).find((v) => v.name === 'Errors')!.state).toEqual({ query: 'imeout', level: ['error'], tz: 'UTC' })
    await page.getByRole('button', { name: 'Rename Errors' }).click()
    await page.getByTestId('rename-input').fill('Errors and worse')
    await page.getByTestId('rename-input').press('Enter')
    await expect.poll(() => page.getByTestId('manage-views-status').innerText()).toBe('Renamed to “Errors and worse”.')
    await screenshot(page, 'views-manage')
    expect(await wcagViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'Delete Errors and worse' }).click()
    await page.getByTestId('confirm-delete-view').waitFor()
    await screenshot(page, 'views-manage-delete')
    expect((await views()).map((v) => v.name)).toContain('Errors and worse')
    await page.getByTestId('confirm-delete-view').click()
    await expect.poll(() => page.getByTestId('manage-views-status').innerText()).toBe('Deleted “Errors and worse”.')
    expect((await views()).map((v) => v.name)).toEqual(before.map((v) => v.name))
    // The one error the browser logs: the store's answer to the name taken.
    expect(errors).toEqual(['Failed to load resource: the server responded with a status of 409 (Conflict)'])
  })

  it('lets a viewer open saved views but not change them, and tells a tenant token they are not for it', async () => {
    const { mutation } = trpcHttp(() => server.url, () => token)
    const viewer = await mutation<{ token: string }>('tokens.create', { name: 'views viewer', role: 'viewer' })
    const tenantId = (await trpc<Array<{ id: string }>>('tenants.list', {}))[0]!.id
    const tenant = await mutation<{ token: string }>('tokens.create', { name: 'views tenant', role: 'tenant', tenantId })
    const view = await mutation<View>('savedViews.create', { name: 'For viewers', state: { level: ['error'], cols: ['time', 'message'] } })

    const asViewer = await openLogs('#/logs', 'Asia/Tokyo', `${server.url}/console/#token=${viewer.token}`)
    await asViewer.page.getByTestId('saved-views-button').click()
    expect(await asViewer.page.getByTestId('save-view').getAttribute('data-disabled')).toBe('true')
    expect(await asViewer.page.getByTestId('save-view').innerText()).toBe('Save current view (admin token)')
    await asViewer.page.getByRole('menuitem', { name: 'For viewers' }).click()
    await expect.poll(() => Object.fromEntries(params(asViewer.page))).toEqual({ level: 'error', cols: 'time,message' })
    await expect.poll(() => visibleIds(asViewer.page)).toEqual((await search({ levels: ['error'] })).map((r) => r.id))
    await asViewer.page.getByTestId('saved-views-button').click()
    await asViewer.page.getByTestId('manage-views-item').click()
    await asViewer.page.getByText('Changing views needs an admin token; you can open them.').waitFor()
    expect(await asViewer.page.getByRole('button', { name: 'Delete For viewers' }).isDisabled()).toBe(true)
    await screenshot(asViewer.page, 'views-viewer-manage')
    expect(asViewer.errors).toEqual([])

    const asTenant = await openLogs('#/logs', 'Asia/Tokyo', `${server.url}/console/#token=${tenant.token}`)
    await asTenant.page.getByTestId('saved-views-button').click()
    await asTenant.page.getByText('Saved views need an admin or viewer token.').waitFor()
    expect(await asTenant.page.getByTestId('saved-view-item').count()).toBe(0)
    expect(asTenant.errors).toEqual([])
    await mutation('savedViews.remove', { id: view.id })
  })
})
