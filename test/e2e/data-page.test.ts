import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { openConsolePage, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string
let remote: TestServer

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(`${tempDir()}/e2e-data.sqlite`))
  remote = await startTestServer()
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await remote?.close()
})

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
const record = (n: number) => ({
  id: uuid(n), tenant_id: uuid(0), log_type: 'sip', log_level: 'error', message: `carrier rejected INVITE ${n}`,
  timestamp: `2020-01-03T07:00:0${n}.000Z`, details: { code: 503 },
})

describe('data page in Chromium', () => {
  it('imports an uploaded file, shows the counts and the refused record, and lists the import', async () => {
    const { page, errors } = await openConsolePage(browser, signInLink, '#/data', 'data-page', 900)
    // A level in another spelling is read and its spelling kept (issue 15); 'loud' is no level.
    const text = [{ ...record(1), log_level: 'ERR' }, record(2), { ...record(3), log_level: 'loud' }].map((r) => JSON.stringify(r)).join('\n')
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
    // Each imported line says where it came from.
    await page.evaluate(`window.location.hash = '#/logs?from=2020-01-01&to=2020-01-05&line=${uuid(1)}'`)
    await page.getByTestId('details-body').waitFor()
    expect(await page.getByTestId('details-level-as-sent').innerText()).toBe('sent as ERR')
    expect(await page.getByTestId('details-origin').innerText()).toMatch(/^Imported from carrier\.ndjson on \d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} UTC\.$/)
    await page.waitForTimeout(400) // the drawer's slide-in transition
    await screenshot(page, 'call-log-origin')
    // A CSV sent under an NDJSON name stops at once, saying so, and stores nothing.
    await page.evaluate(`window.location.hash = '#/data'`)
    await page.getByTestId('data-page').waitFor()
    const csv = 'id,tenant_id,log_type,log_level,message,timestamp\n1,2,llm,error,x,2026-11-01\n'
    await page.locator('input[type=file]').setInputFiles({ name: 'export.ndjson', mimeType: 'application/x-ndjson', buffer: Buffer.from(csv) })
    await page.getByTestId('import-start').click()
    await page.getByTestId('import-failure').waitFor()
    expect(await page.getByTestId('import-failure').innerText()).toMatch(/^Stopped: line 1: not valid JSON: .*, nor is the next line: not NDJSON \(one JSON record per line\)$/)
    expect(await page.getByTestId('import-counts').first().innerText()).toBe('0 records read: 0 new, 0 already stored, 0 refused')
    await screenshot(page, 'data-wrong-format')
    // The one error is the browser's own note of the upload's 422.
    expect(errors).toEqual([expect.stringMatching(/status of 422/)])
    await page.close()
  })

  it('pulls from a live backend: the form checks its input, the pull runs, its counts show in the history', async () => {
    const { page, errors } = await openConsolePage(browser, signInLink, '#/data', 'data-page')
    await page.getByTestId('pull-base-url').fill('backend.example.com')
    await page.getByTestId('pull-start').click()
    await page.getByText('enter the backend address, starting with http:// or https://').waitFor()
    await page.getByText('a token for the backend is needed').waitFor()

    await page.getByTestId('pull-base-url').fill(remote.url)
    await page.getByTestId('pull-token').fill(ADMIN_TOKEN)
    await page.getByTestId('pull-since').fill('2026-11-18')
    await page.getByTestId('pull-start').click()
    await page.getByTestId('pull-status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 })
    const fetched = remote.sqlite.prepare("select count(*) from call_logs where timestamp >= '2026-11-18T00:00:00.000Z'").pluck().get() as number
    const row = await page.getByTestId('pull-history').locator('tbody tr').first().innerText()
    expect(row).toContain(remote.url)
    expect(row).toMatch(new RegExp(`completed\\s+${fetched.toLocaleString("en-US")}\\s`, "i"))
    expect(await page.getByTestId('pull-details').innerText()).toContain(`${fetched.toLocaleString('en-US')} fetched in`)
    // What was pulled is in the store: the remote's newest line answers on this server's REST port.
    const newest = remote.sqlite.prepare('select id, timestamp from call_logs order by timestamp desc limit 1').get() as { id: string; timestamp: string }
    const at = encodeURIComponent(newest.timestamp)
    const logs = (await (await fetch(`${server.url}/logs/calls?start_date=${at}&end_date=${at}`, { headers: { Authorization: `Bearer ${sessionToken}` } })).json()) as Array<{ id: string }>
    expect(logs.map((l) => l.id)).toContain(newest.id)
    await screenshot(page, 'data-pull')
    // Sessions, analytics and trunks kept as JSON can be browsed from the pull's row.
    await page.getByTestId('pull-browse').click()
    const table = page.getByTestId('pulled-documents-table')
    await table.waitFor()
    const tab = page.getByText(/^Sessions \([\d,]+\)$/)
    const sessions = Number((await tab.innerText()).replace(/\D/g, ''))
    // As many as the pull reported (the history row's Sessions column).
    expect(row).toMatch(new RegExp(`\\s${sessions.toLocaleString('en-US')}\\s+0\\s`))
    await expect.poll(() => table.locator('tbody tr').count()).toBe(Math.min(50, sessions))
    await table.locator('tbody tr').first().click()
    expect(JSON.parse(await page.getByTestId('pulled-document-json').innerText())).toHaveProperty('conversation_id')
    await page.waitForTimeout(300) // the modal's transition
    await screenshot(page, 'pulled-documents')
    await page.getByText(/^SIP trunks \(1\)$/).click()
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1)
    expect(await table.locator('tbody tr').first().innerText()).toMatch(/^every tenant\s+\d+ trunks: /)
    await page.keyboard.press('Escape')
    await page.getByTestId('pulled-documents').waitFor({ state: 'hidden' })
    // A pulled tenant's profile names the backend it came from.
    const tenant = remote.sqlite.prepare('select id from tenants order by name limit 1').pluck().get() as string
    await page.evaluate(`window.location.hash = '#/tenants/${tenant}'`)
    expect(await page.getByTestId('tenant-origin').innerText()).toMatch(new RegExp(`^pulled from ${remote.url.replace(/[.]/g, '\\.')} on \\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2}:\\d{2} UTC$`))
    await screenshot(page, 'tenant-origin')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000) // a whole pull from a live backend, which under a full parallel run can take half a minute

  it('keeps a backend in sync from the pull form: its state and last sync show, and the switch turns it off', async () => {
    const { page, errors } = await openConsolePage(browser, signInLink, '#/data', 'data-page')
    await page.getByTestId('pull-base-url').fill(remote.url)
    await page.getByTestId('pull-token').fill(ADMIN_TOKEN)
    await page.getByTestId('pull-since').fill('2026-11-18')
    await page.getByLabel('Keep in sync', { exact: true }).click({ force: true })
    expect(await page.getByTestId('pull-start').innerText()).toBe('Start syncing')
    await page.getByTestId('pull-start').click()
    const row = page.getByTestId('sync-list').locator('tbody tr').filter({ hasText: remote.url })
    // The first pull of the sync ends, then it waits for the next: "in sync", with the time it synced.
    await row.getByTestId('sync-state').filter({ hasText: 'in sync' }).waitFor({ timeout: 45_000 })
    expect(await row.getByTestId('sync-last').innerText()).toMatch(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2}:\d{2} UTC$/)
    expect(await row.getByTestId('sync-error').innerText()).toBe('none')
    // The token field was emptied: it is not kept in the page either.
    expect(await page.getByTestId('pull-token').inputValue()).toBe('')
    await screenshot(page, 'data-sync')
    await row.getByTestId('sync-switch').click({ force: true })
    await row.getByTestId('sync-state').filter({ hasText: 'off' }).waitFor()
    expect(await row.getByTestId('sync-switch').isChecked()).toBe(false)
    // Its pulls are not in the history of one-off pulls.
    const syncs = (await (await fetch(`${server.url}/trpc/pulls.syncs`, { headers: { Authorization: `Bearer ${sessionToken}` } })).json()) as { result: { data: Array<{ state: string; cycles: number }> } }
    expect(syncs.result.data).toEqual([expect.objectContaining({ state: 'stopped', cycles: expect.any(Number) })])
    await screenshot(page, 'data-sync-off')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
