import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectErrors, screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'

let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(`${tempDir()}/e2e-data.sqlite`))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const record = (n: number) => ({
  id: uuid(n), tenant_id: uuid(0), log_type: 'sip', log_level: 'error', message: `carrier rejected INVITE ${n}`,
  timestamp: `2020-01-03T07:00:0${n}.000Z`, details: { code: 503 },
})

describe('data page in Chromium', () => {
  it('imports an uploaded file, shows the counts and the refused record, and lists the import', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    await page.goto(signInLink)
    await page.getByTestId('signed-in-as').waitFor()
    await page.evaluate(`window.location.hash = '#/data'`)
    await page.getByTestId('data-page').waitFor()
    const text = [record(1), record(2), { ...record(3), log_level: 'loud' }].map((r) => JSON.stringify(r)).join('\n')
    await page.locator('input[type=file]').setInputFiles({ name: 'carrier.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(text) })
    await page.getByTestId('import-start').click()
    await page.getByTestId('import-result').waitFor()
    expect(await page.getByTestId('import-counts').first().innerText()).toBe('3 records read: 2 new, 0 already stored, 1 refused')
    expect(await page.getByTestId('import-errors').locator('tbody tr').first().innerText()).toMatch(/^3\s+3\s+log_level: /)
    await page.getByTestId('import-history').locator('tbody tr').first().waitFor()
    expect(await page.getByTestId('import-history').locator('tbody tr').first().innerText()).toMatch(/carrier\.ndjson\s+ndjson\s+completed\s+3\s+2\s+0\s+1/i)
    // The imported lines are there for the API.
    const logs = (await (await fetch(`${server.url}/logs/calls?start_date=2020-01-03&end_date=2020-01-03`, { headers: { Authorization: `Bearer ${sessionToken}` } })).json()) as Array<{ id: string }>
    expect(logs.map((l) => l.id)).toEqual([uuid(2), uuid(1)])
    await screenshot(page, 'data')
    expect(errors).toEqual([])
    await page.close()
  })
})
