import { copyFileSync } from 'node:fs'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import { type ConsoleSession, openConsolePage, startConsoleSession } from '../helpers/console-session'
import { damageRowsOf } from '../helpers/damaged-store'
import { tempDir } from '../helpers/temp-dir'

/*
 * The console's store health banner (issue 36) in Chromium, against the real serve on a demo store
 * whose newest call logs' page is overwritten: the check on open finds it, and every page says so.
 */

let session: ConsoleSession
let dbPath: string
beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-damaged.sqlite`
  copyFileSync(inject('demoTemplate'), dbPath)
  const db = new Database(dbPath, { readonly: true })
  const newest = db.prepare('select seq from call_logs order by timestamp desc, seq desc limit 1').pluck().get() as number
  db.close()
  damageRowsOf(dbPath, 'call_logs', [newest])
  session = await startConsoleSession(dbPath)
}, 90_000)
afterAll(async () => session?.close())

describe('store health banner', () => {
  it('names the damage and what to run on every page, as an alert that passes WCAG AA', async () => {
    const { page, errors } = await openConsolePage(session.browser, session.signInLink, '#/tenants', 'store-damaged')
    const banner = page.getByTestId('store-damaged')
    expect(await banner.getAttribute('role')).toBe('alert')
    const text = await banner.innerText()
    expect(text).toContain('The store is damaged')
    expect(text).toContain(`callscope db check --db ${dbPath}`)
    expect(text).toContain(`callscope db recover --db ${dbPath} --out NEW.db`)
    expect(await page.getByTestId('store-write-fault').count()).toBe(0)
    expect(await wcagViolations(page)).toEqual([])
    await screenshot(page, 'store-health-banner-tenants')

    // Another page, and one whose read meets the damage: the banner stays, the page says why it has no rows.
    await page.evaluate(`window.location.hash = '#/logs'`)
    await page.getByTestId('error-state').first().waitFor()
    expect(await page.getByTestId('error-state').first().innerText()).toContain('the store is damaged')
    expect(await page.getByTestId('store-damaged').isVisible()).toBe(true)
    expect(await wcagViolations(page)).toEqual([])
    await screenshot(page, 'store-health-banner-logs')
    // The failed reads are answered (503 / SERVICE_UNAVAILABLE), not page errors.
    expect(errors.filter((e) => !/503|Service Unavailable/i.test(e))).toEqual([])
    await page.close()
  })
})
