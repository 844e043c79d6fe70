import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import { runCliAsync, type ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15, point 4, in the console: a store that mirrors staging and production (same ids, every
 * tenant renamed in production). The header's source picker limits every
 * page to one of them; the same tenant link shows each backend's own profile.
 */

let staging: TestServer
let production: TestServer
let server: ServeProcess
let browser: Browser
let signInLink: string

beforeAll(async () => {
  ;[staging, production] = await Promise.all([startTestServer(), startTestServer()])
  production.sqlite.prepare("update tenants set name = name || ' (prod)'").run()
  const dbPath = `${tempDir()}/e2e-sources.sqlite`
  for (const remote of [staging, production]) {
    const pull = await runCliAsync(['pull', '--base-url', remote.url, '--since', '2000-01-01', '--rate', '1000', '--db', dbPath], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
    expect(pull.status, pull.stderr).toBe(0)
  }
  ;({ server, browser, signInLink } = await startConsoleSession(dbPath))
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await Promise.all([staging, production].map((s) => s?.close()))
})

describe('the source picker', () => {
  it('limits every page to the source chosen, and remembers it', async () => {
    const tenant = staging.sqlite.prepare('select id, name from tenants order by name limit 1').get() as { id: string; name: string }
    // One browser context, so the second tab below shares its storage as a user's browser does.
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } })
    const open = async () => {
      const tab = await context.newPage()
      await tab.goto(signInLink)
      await tab.getByTestId('signed-in-as').waitFor()
      await tab.evaluate(`window.location.hash = '#/tenants/${tenant.id}'`)
      await tab.getByTestId('tenant-name').waitFor()
      return tab
    }
    const page = await open()
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
    const picker = page.getByTestId('source-picker')
    // Every source: the store has no tenant of its own, so the one fetched last (production) answers.
    expect(await picker.inputValue()).toBe('All sources')
    expect(await page.getByTestId('tenant-name').innerText()).toBe(`${tenant.name} (prod)`)

    const choose = async (label: string) => {
      await picker.click()
      await page.getByRole('option', { name: label, exact: true }).click()
    }
    await choose(production.url.replace('http://', ''))
    await expect.poll(() => page.getByTestId('tenant-name').innerText()).toBe(`${tenant.name} (prod)`)
    await screenshot(page, 'source-picker-production')
    expect(await wcagViolations(page)).toEqual([])

    await choose(staging.url.replace('http://', ''))
    await expect.poll(() => page.getByTestId('tenant-name').innerText()).toBe(tenant.name)

    // The tenants list of one backend lists that backend's tenants only.
    await choose(production.url.replace('http://', ''))
    await page.evaluate(`window.location.hash = '#/tenants'`)
    const names = (production.sqlite.prepare('select name from tenants order by name').pluck().all() as string[])
    await expect.poll(async () => (await page.getByRole('link').allInnerTexts()).filter((t) => t.endsWith(' (prod)')).sort()).toEqual(names)
    await expect.poll(async () => (await page.getByRole('link').allInnerTexts()).includes(tenant.name)).toBe(false)

    // A new tab of the same browser starts from the last choice.
    const second = await open()
    await expect.poll(() => second.getByTestId('tenant-name').innerText()).toBe(`${tenant.name} (prod)`)
    expect(await second.getByTestId('source-picker').inputValue()).toBe(production.url.replace('http://', ''))
    await choose('All sources')
    expect(errors).toEqual([])
    await context.close()
  })
})
