import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SquadAnalytics } from '../../src-shared/schemas/squad-analytics'
import { collectErrors, screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(`${tempDir()}/e2e-admin.sqlite`))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const { query: trpcQuery, mutation: trpcMutation } = trpcHttp(() => server.url, () => sessionToken)

/** In-app navigation: only the hash changes, so the tab keeps its sign-in. */
const goHash = (page: Page, hash: string) => page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`)

async function open(hash: string, link = signInLink): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(link)
  await page.getByTestId('signed-in-as').waitFor()
  await goHash(page, hash)
  return { page, errors }
}

/** textContent, not innerText: badges are upper-cased by CSS. */
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').trim()

describe('admin pages in Chromium', () => {
  it('lists squads as squads.list does', async () => {
    const { page, errors } = await open('#/squads')
    await page.getByTestId('squads-table').waitFor()
    const expected = (await trpcQuery<Array<{ name: string }>>('squads.list')).map((s) => s.name)
    expect(expected.length).toBeGreaterThan(0)
    expect(await page.getByTestId('squads-table').locator('tbody tr td:first-child').allInnerTexts()).toEqual(expected)
    await screenshot(page, 'squads')
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a squad’s analytics with the numbers of squads.analytics and the REST API, and keeps the period in the URL', async () => {
    const squads = await trpcQuery<Array<{ id: string; name: string }>>('squads.list')
    // The squad with the most transfers in the last 30 days makes the fullest page.
    const { page, errors } = await open(`#/squads/${squads[0]!.id}`)
    await page.getByTestId('stat-total').waitFor()
    let squadId = squads[0]!.id
    let best = -1
    for (const s of squads) {
      const period = page.getByTestId('squad-period')
      const input = { squadId: s.id, start_date: await period.getAttribute('data-start'), end_date: await period.getAttribute('data-end') }
      const a = await trpcQuery<SquadAnalytics>('squads.analytics', input)
      if (a.transfer_statistics.total > best) {
        best = a.transfer_statistics.total
        squadId = s.id
      }
    }
    await goHash(page, `#/squads/${squadId}?days=7`)

    for (const days of ['7', '90', '30']) {
      if (days !== '7') await page.getByText(`${days} days`, { exact: true }).click()
      await expect.poll(() => page.url()).toContain(`days=${days}`)
      // The page's period: whole UTC days ending today; wait until it shows the chosen one.
      const period = page.getByTestId('squad-period')
      const end_date = (await period.getAttribute('data-end'))!
      const start_date = new Date(Date.parse(end_date) - (Number(days) - 1) * 86_400_000).toISOString().slice(0, 10)
      await expect.poll(() => period.getAttribute('data-start')).toBe(start_date)
      const expected = await trpcQuery<SquadAnalytics>('squads.analytics', { squadId, start_date, end_date })
      const rest = await fetch(`${server.url}/squads/${squadId}/analytics?start_date=${start_date}&end_date=${end_date}`, {
        headers: { Authorization: `Bearer ${sessionToken}` },
      })
      expect(rest.status).toBe(200)
      expect(((await rest.json()) as SquadAnalytics).transfer_statistics).toEqual(expected.transfer_statistics)
      const t = expected.transfer_statistics
      await expect.poll(() => text(page, 'squad-name')).toBe(expected.squad_name)
      await expect.poll(() => text(page, 'stat-total')).toBe(t.total.toLocaleString('en-US'))
      expect(await text(page, 'stat-sessions')).toBe(expected.session_distribution.total_sessions.toLocaleString('en-US'))
      // The shown rate, not its formatting: a percentage with at most one decimal (Intl drops a
      // trailing .0), within half a tenth of the true one. Mirroring the formatter with toFixed
      // failed on binary halves (0.9655 shows 96.6%, toFixed gives 96.5).
      const shownRate = await text(page, 'stat-success-rate')
      expect(shownRate).toMatch(/^\d+(\.\d)?%$/)
      expect(Math.abs(Number.parseFloat(shownRate) - t.success_rate * 100)).toBeLessThanOrEqual(0.05 + 1e-9)
      for (const cell of t.matrix) {
        expect(await text(page, `matrix-cell-${cell.from_agent_id}-${cell.to_agent_id}`)).toBe(String(cell.count))
      }
      if (days === '30') {
        expect(t.total).toBeGreaterThan(0)
        await page.mouse.move(0, 0)
        await screenshot(page, 'squad')
      }
    }
    for (const chart of ['utilization-chart', 'strategy-rates-chart', 'strategy-wait-chart', 'hour-chart', 'language-chart']) {
      await page.getByTestId(chart).locator('.recharts-bar-rectangle').first().waitFor()
    }
    // 24 hour buckets.
    expect(await page.getByTestId('hour-chart').locator('.recharts-xAxis .recharts-cartesian-axis-tick').count()).toBe(24)
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows LLM provider details and validates an STT configuration', async () => {
    const { page, errors } = await open('#/providers')
    await page.getByTestId('llm-models').waitFor()
    const catalog = await trpcQuery<{ llm: Array<{ id: string; models: unknown[] }> }>('providers.catalog')
    expect(await page.getByTestId('llm-models').locator('tbody tr').count()).toBe(catalog.llm[0]!.models.length)
    await page.getByTestId('llm-credentials').waitFor()
    await screenshot(page, 'providers')

    await page.getByRole('tab', { name: 'STT validation' }).click()
    await expect.poll(() => page.url()).toContain('tab=stt')
    await page.getByTestId('stt-provider').fill('deepgram')
    await page.getByTestId('stt-model').fill('nova-33')
    await page.keyboard.press('Escape')
    await page.getByTestId('stt-submit').click()
    await page.getByTestId('stt-checks').waitFor()
    expect(await page.getByTestId('check-provider_known').getAttribute('data-status')).toBe('pass')
    expect(await page.getByTestId('check-model_available').getAttribute('data-status')).toBe('fail')
    expect(await text(page, 'stt-valid')).toBe('not valid')
    expect(await text(page, 'stt-mode')).toBe('offline')
    expect(await text(page, 'stt-latency')).toMatch(/^took \d+ ms$/)
    expect(await page.getByTestId('stt-suggestions').innerText()).toContain('nova-3')
    await page.mouse.move(0, 0)
    await screenshot(page, 'stt-validation')
    expect(errors).toEqual([])
    await page.close()
  })

  it('tells a viewer that provider administration needs an admin token', async () => {
    const viewer = await trpcMutation<{ token: string }>('tokens.create', { name: 'e2e viewer', role: 'viewer' })
    const { page, errors } = await open('#/providers', `${server.url}/console/#token=${viewer.token}`)
    await page.getByTestId('needs-admin').waitFor()
    expect(await page.getByTestId('signed-in-as').innerText()).toBe('viewer')
    // The refused procedures answer 403, which the browser reports as a failed resource load.
    expect(errors.filter((e) => !/403|Forbidden/i.test(e))).toEqual([])
    await page.close()
  })

  it('lists SIP trunks as sipTrunks.list does, without passwords', async () => {
    const { page, errors } = await open('#/sip-trunks')
    await page.getByTestId('trunks-table').waitFor()
    const list = await trpcQuery<{ source: string; trunks: Array<{ sip_trunk_id: string; allowed_addresses: string[] }> }>('sipTrunks.list')
    expect(await page.getByTestId('trunks-table').locator('tbody tr').count()).toBe(list.trunks.length)
    expect(await page.getByTestId('trunk-source').getAttribute('data-source')).toBe(list.source)
    const open_ = list.trunks.find((t) => t.allowed_addresses.length === 0)
    if (open_) expect(await page.getByTestId(`trunk-${open_.sip_trunk_id}`).getByTestId('allowed-addresses').innerText()).toBe('any address')
    expect(await page.content()).not.toMatch(/auth_password"|password":/)
    await screenshot(page, 'sip-trunks')
    expect(errors).toEqual([])
    await page.close()
  })

  it('creates a token that works on the REST port, and revokes it', async () => {
    const { page, errors } = await open('#/settings')
    await page.getByTestId('tokens-table').waitFor()
    await page.getByTestId('listener-url').waitFor()
    expect(await text(page, 'listener-url')).toBe(server.url)
    expect(await text(page, 'db-path')).toContain('e2e-admin.sqlite')
    const tenants = await trpcQuery<Array<{ id: string; name: string }>>('tenants.list', {})
    const tenant = tenants[0]!

    await page.getByTestId('token-name').fill('e2e reader')
    await page.getByTestId('token-role').click()
    await page.getByRole('option', { name: 'tenant' }).click()
    await page.getByTestId('token-tenant').click()
    await page.getByRole('option', { name: tenant.name }).click()
    await page.getByTestId('create-token').click()
    const token = (await page.getByTestId('new-token').innerText()).trim()
    expect(token).toMatch(/^cs_/)
    const get = () => fetch(`${server.url}/tenants/${tenant.id}`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status)
    expect(await get()).toBe(200)
    await page.getByTestId('close-new-token').click()
    await page.getByTestId('new-token').waitFor({ state: 'detached' })

    const row = page.getByTestId('token-row-e2e reader')
    await row.waitFor()
    expect(await row.getByTestId('token-status').textContent()).toBe('active')
    await screenshot(page, 'settings')
    await row.getByTestId('revoke-token').click()
    await page.getByTestId('confirm-revoke').click()
    await expect.poll(() => row.getByTestId('token-status').textContent()).toBe('revoked')
    expect(await get()).toBe(401)
    expect(errors).toEqual([])
    await page.close()
  })
})
