import Database from 'better-sqlite3'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectErrors, screenshot } from '../helpers/browser'
import { type ConsoleSession, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'
import type { TokenListing } from '../../src-main/modules/tokens/tokens.service'

const DAY_MS = 86_400_000

let session: ConsoleSession
let dbPath: string
beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-tokens.sqlite`
  session = await startConsoleSession(dbPath)
}, 90_000)
afterAll(async () => session?.close())

const { query } = trpcHttp(() => session.server.url, () => session.sessionToken)
const listTokens = () => query<TokenListing[]>('tokens.list')

/** As the console writes timestamps (lib/format.ts): UTC, said. */
const shown = (iso: string) =>
  `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso))} UTC`

async function openSettings(): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(session.signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.evaluate(`window.location.hash = '#/settings'`)
  await page.getByTestId('tokens-table').waitFor()
  return { page, errors }
}

async function createToken(page: Page, name: string, expires: string, date?: string): Promise<string> {
  await page.getByTestId('token-name').fill(name)
  await page.getByTestId('token-expires').click()
  await page.getByRole('option', { name: expires, exact: true }).click()
  if (date) {
    await page.getByTestId('token-expiry-date').fill(date)
    // The form with its date field showing, to look at.
    await screenshot(page, 'settings-token-expiry-date')
  }
  await page.getByTestId('create-token').click()
  const token = (await page.getByTestId('new-token').innerText()).trim()
  await page.getByTestId('close-new-token').click()
  await page.getByTestId('new-token').waitFor({ state: 'detached' })
  return token
}

describe('token expiry on the Settings page, in Chromium', () => {
  it('creates tokens that expire on a date or after 30 days, lists their expiry, and marks expired ones', async () => {
    const { page, errors } = await openSettings()
    const date = new Date(Date.now() + 365 * DAY_MS).toISOString().slice(0, 10)
    const dated = await createToken(page, 'e2e until date', 'On a date…', date)
    const whoami = await fetch(`${session.server.url}/trpc/tokens.whoami`, { headers: { Authorization: `Bearer ${dated}` } })
    expect(whoami.status).toBe(200)
    await createToken(page, 'e2e month', 'In 30 days')
    await createToken(page, 'e2e stale', 'In 7 days')

    const listed = new Map((await listTokens()).map((t) => [t.name, t]))
    expect(listed.get('e2e until date')!.expires_at).toBe(`${date}T00:00:00.000Z`)
    const month = listed.get('e2e month')!
    expect(Date.parse(month.expires_at!) - Date.parse(month.created_at)).toBe(30 * DAY_MS)

    const row = (name: string) => page.getByTestId(`token-row-${name}`)
    await expect.poll(() => row('e2e until date').getByTestId('token-expires-at').textContent()).toBe(shown(`${date}T00:00:00.000Z`))
    expect(await row('e2e month').getByTestId('token-expires-at').textContent()).toBe(shown(month.expires_at!))
    expect(await row('e2e month').getByTestId('token-status').textContent()).toBe('active')

    // Moved into the past instead of waiting: created two days ago, expired yesterday.
    const now = Date.now()
    const sqlite = new Database(dbPath)
    sqlite
      .prepare("update api_tokens set created_at = ?, expires_at = ? where name = 'e2e stale'")
      .run(new Date(now - 2 * DAY_MS).toISOString(), new Date(now - DAY_MS).toISOString())
    sqlite.close()
    await page.reload()
    await expect.poll(() => row('e2e stale').getByTestId('token-status').textContent()).toBe('expired')
    expect(await row('e2e stale').getByTestId('token-expires-at').textContent()).toBe(shown(new Date(now - DAY_MS).toISOString()))
    await screenshot(page, 'settings-token-expiry')
    expect(errors).toEqual([])
    await page.close()
  })

  it('says when a new token stops working before it is closed', async () => {
    const { page, errors } = await openSettings()
    await page.getByTestId('token-name').fill('e2e year')
    await page.getByTestId('token-expires').click()
    await page.getByRole('option', { name: 'In 1 year', exact: true }).click()
    await page.getByTestId('create-token').click()
    await page.getByTestId('new-token').waitFor()
    const year = (await listTokens()).find((t) => t.name === 'e2e year')!
    await expect.poll(() => page.getByRole('dialog').textContent()).toContain(`It stops working on ${shown(year.expires_at!)}.`)
    await screenshot(page, 'settings-token-created')
    expect(errors).toEqual([])
    await page.close()
  })
})
