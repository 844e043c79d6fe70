import Database from 'better-sqlite3'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_SCHEMAS } from '../../src-shared/schemas/webhook-events'
import { screenshot } from '../helpers/browser'
import { type ConsoleSession, openConsolePage, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { independentlySigned, independentlyVerified, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * The tenant's Webhooks tab in Chromium (issue 18, points 3 and 4): a secret made and shown once, a
 * test-send to a receiver on loopback answering 500 then 200 with both attempts in the log, a
 * replay, then events a "backend" (this test, signing with node:crypto) posts to the inbox showing
 * up live, accepted and rejected, and on the call's page. Retries are shortened for the serve process.
 */

let session: ConsoleSession
let receiver: WebhookReceiver
let tenantId: string
let callId: string
let lineId: string
let secret = ''

beforeAll(async () => {
  const dbPath = `${tempDir()}/e2e-webhooks.sqlite`
  session = await startConsoleSession(dbPath, { CALLSCOPE_WEBHOOK_RETRY_SCHEDULE_MS: '0,300' })
  const sqlite = new Database(dbPath, { readonly: true })
  ;({ tenant_id: tenantId, id: callId } = sqlite
    .prepare("select tenant_id, id from calls where status = 'completed' and tenant_id in (select id from tenants where webhook_url is not null) order by started_at desc limit 1")
    .get() as { tenant_id: string; id: string })
  lineId = sqlite.prepare('select id from call_logs where call_id = ? order by timestamp limit 1').pluck().get(callId) as string
  sqlite.close()
  receiver = await startWebhookReceiver((i) => (i === 0 ? { status: 500, body: '{"error":"database is locked"}', headers: { 'content-type': 'application/json' } } : { status: 200, body: 'ok' }))
}, 90_000)
afterAll(async () => {
  await receiver?.close()
  await session?.close()
})

const openTab = () => openConsolePage(session.browser, session.signInLink, `#/tenants/${tenantId}?tab=webhooks`, 'webhooks-tab', 1100)
const rows = (page: Page, table: string) => page.getByTestId(table).locator('tbody > tr')

describe('the tenant Webhooks tab, in Chromium', () => {
  it('makes the signing secret and shows it once, then only its hint', async () => {
    const { page, errors } = await openTab()
    await expect.poll(() => page.getByTestId('secret-status').textContent()).toMatch(/^No signing secret yet/)
    await page.getByTestId('secret-create').click()
    secret = (await page.getByTestId('new-secret').innerText()).trim()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    // Polled from here: the page's CSP (no unsafe-eval) refuses waitForFunction.
    await expect.poll(() => page.evaluate(`document.getAnimations().every((a) => a.playState !== 'running')`)).toBe(true)
    await screenshot(page, 'webhooks-secret-dialog')
    await page.getByTestId('close-new-secret').click()
    await page.getByTestId('new-secret').waitFor({ state: 'detached' })
    const status = await page.getByTestId('secret-status').textContent()
    expect(status).toContain(`whsec_…${secret.slice(-4)}`)
    expect(status).not.toContain(secret.slice(6, 20))
    expect(errors).toEqual([])
    await page.close()
  })

  it('sends a test event to a receiver answering 500 then 200, and shows both attempts', async () => {
    const { page, errors } = await openTab()
    // The tenant's webhook_url is the form's default.
    expect(await page.getByTestId('test-send-url').inputValue()).toMatch(/^https:\/\/hooks\./)
    await page.getByTestId('test-send-url').fill('ftp://nowhere')
    await page.getByText('Input should be an absolute http or https URL').waitFor()
    expect(await page.getByTestId('test-send-submit').isDisabled()).toBe(true)
    await page.getByTestId('test-send-url').fill(receiver.url)
    // Loopback is refused until allowed.
    const allow = page.getByRole('switch', { name: /^Allow loopback and private targets/ })
    await allow.click({ force: true })
    await expect.poll(() => allow.isChecked()).toBe(true)
    await page.getByTestId('test-send-submit').click()
    // The new delivery opens by itself; its attempts land in the background.
    const details = page.getByTestId('delivery-details')
    await details.getByTestId('attempt-2').waitFor()
    await expect.poll(() => rows(page, 'delivery-log').first().getByTestId('delivery-status').textContent()).toBe('succeeded')
    expect(await details.getByTestId('attempt-1').getByTestId('attempt-outcome').textContent()).toBe('HTTP 500')
    expect(await details.getByTestId('attempt-1').getByTestId('attempt-response-body').textContent()).toBe('{"error":"database is locked"}')
    expect(await details.getByTestId('attempt-2').getByTestId('attempt-outcome').textContent()).toBe('HTTP 200')
    expect(await details.getByTestId('attempt-1').getByTestId('attempt-request-headers').textContent()).toContain('webhook-signature')
    await screenshot(page, 'webhooks-delivery-log')
    const got = await receiver.received(2)
    for (const r of got) expect(independentlyVerified(secret, r.headers, r.body)).toBe(true)
    const event = WEBHOOK_EVENT_SCHEMAS['call.ended'].parse(JSON.parse(got[0]!.body))
    expect(event.data.tenant_id).toBe(tenantId)
    expect(await details.getByTestId('delivery-body').textContent()).toContain(event.data.call_id)

    await details.getByTestId('replay').click()
    await expect.poll(() => rows(page, 'delivery-log').filter({ has: page.getByTestId('delivery-status') }).count()).toBe(2)
    await receiver.received(3)
    expect(receiver.requests[2]!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id'])
    await expect.poll(() => rows(page, 'delivery-log').first().getByTestId('delivery-status').textContent()).toBe('succeeded')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it("shows the inbox's events live, accepted and rejected with the reason, and the call's page (from the explorer) lists them", async () => {
    const { page, errors } = await openTab()
    await page.getByText('Nothing received yet.').waitFor()
    expect(await page.getByTestId('inbox-address').textContent()).toBe(`${session.server.url}/webhooks/inbox/${tenantId}`)
    const inbox = `${session.server.url}/webhooks/inbox/${tenantId}`
    const body = JSON.stringify({ type: 'call.ended', timestamp: new Date().toISOString(), data: { call_id: callId, tenant_id: tenantId } })
    const now = Math.floor(Date.now() / 1000)
    expect((await fetch(inbox, { method: 'POST', headers: independentlySigned(secret, 'msg_e2e_ok', now, body), body })).status).toBe(200)
    const forged = independentlySigned(`whsec_${Buffer.alloc(32, 9).toString('base64')}`, 'msg_e2e_forged', now, body)
    expect((await fetch(inbox, { method: 'POST', headers: forged, body })).status).toBe(401)
    // No reload: the tab reads the inbox again by itself.
    await expect.poll(() => rows(page, 'webhook-inbox').count()).toBe(2)
    const [rejected, accepted] = [rows(page, 'webhook-inbox').nth(0), rows(page, 'webhook-inbox').nth(1)]
    expect(await rejected.getByTestId('inbox-status').textContent()).toBe('rejected')
    expect(await accepted.getByTestId('inbox-status').textContent()).toBe('accepted')
    await rejected.getByTestId('row-details-toggle').click()
    expect(await page.getByTestId('inbox-reason').textContent()).toMatch(/^Invalid webhook-signature: no v1 signature is the HMAC-SHA256/)
    await screenshot(page, 'webhooks-inbox')
    expect(errors).toEqual([])
    await page.close()

    // From the explorer: a line of the call opens the call's page, where its events are.
    const call = await openConsolePage(session.browser, session.signInLink, `#/logs?line=${lineId}`, 'details-body', 1100)
    // The drawer itself lists the call's events: the two received (the forged one rejected) and the two test-sends built from it.
    const listed = call.page.getByTestId('line-call-event')
    await expect.poll(() => listed.count()).toBe(4)
    expect((await listed.allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').replace(/ (received|sent) .*/, '')).sort()).toEqual([
      'ACCEPTED call.ended',
      'REJECTED call.ended',
      'SUCCEEDED call.ended',
      'SUCCEEDED call.ended',
    ])
    await screenshot(call.page, 'webhooks-line-drawer')
    await call.page.getByTestId('details-call-page').click()
    await call.page.getByTestId('call-title').waitFor()
    expect(await call.page.evaluate('window.location.hash')).toBe(`#/calls/${callId}`)
    const received = call.page.getByTestId('call-events-received').locator('tbody > tr')
    await expect.poll(() => received.count()).toBe(2)
    expect(await received.first().textContent()).toContain('call.ended')
    await screenshot(call.page, 'webhooks-call-events')
    expect(call.errors).toEqual([])
    await call.page.close()
  })
})
