import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, type ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { collectErrors, screenshot } from '../helpers/browser'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string
const dbPath = `${tempDir()}/e2e.sqlite`

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(dbPath))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const { query: trpc } = trpcHttp(() => server.url, () => sessionToken)

/** Signs in with the link (landing on the overview), then opens the tenants page. */
async function openConsole(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('overview').waitFor()
  await page.getByRole('link', { name: 'Tenants' }).click()
  return { page, errors }
}

describe('console in Chromium', () => {
  it('signs in from the link, drops the token from the address bar, and lists tenants', async () => {
    const { page, errors } = await openConsole()
    await page.getByTestId('tenants-table').waitFor()
    expect(page.url()).not.toContain('token=')
    const names = await page.getByTestId('tenants-table').locator('tbody tr td:first-child').allInnerTexts()
    const expected = ((await trpc('tenants.list', {})) as Array<{ name: string }>).map((t) => t.name)
    expect(names).toEqual(expected)
    expect(await page.getByTestId('signed-in-as').innerText()).toBe('admin')
    await screenshot(page, 'tenants')
    expect(errors).toEqual([])
    await page.close()
  })

  it('filters tenants by search, as the API does, and keeps the filter in the URL', async () => {
    const { page, errors } = await openConsole()
    await page.getByTestId('tenants-table').waitFor()
    const first = ((await trpc('tenants.list', {})) as Array<{ name: string }>)[0]!.name
    const term = first.split(' ')[0]!.toLowerCase()
    await page.getByLabel('Search tenants').fill(term)
    await expect.poll(() => page.url()).toContain(`q=${term}`)
    const expected = ((await trpc('tenants.list', { search: term })) as Array<{ name: string }>).map((t) => t.name)
    await expect.poll(() => page.getByTestId('tenants-table').locator('tbody tr td:first-child').allInnerTexts()).toEqual(expected)
    await page.getByLabel('Search tenants').fill('no tenant is called this')
    await page.getByTestId('empty-state').waitFor()
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a tenant profile grouped as the spec groups it', async () => {
    const { page, errors } = await openConsole()
    await page.getByTestId('tenants-table').locator('tbody tr a').first().click()
    await page.getByTestId('tenant-name').waitFor()
    for (const section of ['Organization', 'Billing plan and usage', 'Features', 'Compliance', 'Recording', 'Webhook', 'Timestamps']) {
      await expect.poll(() => page.getByText(section, { exact: true }).count()).toBeGreaterThan(0)
    }
    await page.getByText(/ of [\d,]+ calls/).waitFor()
    await screenshot(page, 'tenant-profile')
    expect(errors).toEqual([])
    await page.close()
  })

  it('asks for a token when the tab has none, and accepts a pasted one', async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    const errors = collectErrors(page)
    await page.goto(`${server.url}/console/`)
    await page.getByTestId('token-input').waitFor()
    await screenshot(page, 'sign-in')
    await page.getByTestId('token-input').fill(sessionToken)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByTestId('overview').waitFor()
    // The unauthenticated first request is expected to fail; nothing else may.
    expect(errors.filter((e) => !/401|Unauthorized/i.test(e))).toEqual([])
    await page.close()
  })

  it("says why when the tab's token stops working, and what to do", async () => {
    const created = runCli(['token', 'create', '--db', dbPath, '--name', 'short-lived', '--role', 'viewer', '--expires', '30d'])
    expect(created.status).toBe(0)
    const token = created.stdout.trim()
    const id = /\(id ([0-9a-f-]+);/.exec(created.stderr)![1]!
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    await page.goto(`${server.url}/console/#token=${encodeURIComponent(token)}`)
    await page.getByTestId('overview').waitFor()

    expect(runCli(['token', 'revoke', id, '--db', dbPath]).status).toBe(0)
    await page.reload()
    const refused = page.getByTestId('sign-in-refused')
    await refused.waitFor()
    expect(await refused.innerText()).toContain('Invalid or revoked token')
    expect(await refused.innerText()).toContain('callscope token create')
    await screenshot(page, 'sign-in-refused')
    await page.close()
  })
})
