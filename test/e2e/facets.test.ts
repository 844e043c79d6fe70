import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import type { ServeProcess } from '../helpers/cli'
import { collectErrors, screenshot } from '../helpers/browser'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * The explorer's facets in Chromium (issue 17, point 2): a tenant's value filters the rows in and
 * the counts follow, the minus filters out, a details key picked shows its values, all written
 * into the query line; checked against the service's own answers.
 */

let server: ServeProcess
let browser: Browser
let signInLink: string
let token: string

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken: token } = await startConsoleSession(`${tempDir()}/e2e-facets.sqlite`))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const { query: trpc } = trpcHttp(() => server.url, () => token)
type Named = { value: string; name: string | null; nameShared: boolean; count: number }
/** As the panel shows a tenant or agent: its name, with the start of its id when another has that name. */
const label = (n: Named) => (n.name ? (n.nameShared ? `${n.name} · ${n.value.slice(0, 8)}` : n.name) : n.value)
type Facets = { tenants: Named[]; agents: Named[]; levels: Array<{ value: string; count: number }> }
const facets = (filter: Record<string, unknown>) => trpc<Facets>('callLogs.facets', { filter })
const search = (filter: Record<string, unknown>) => trpc<{ rows: Array<{ id: string; tenant_id: string }> }>('callLogs.search', { filter, limit: 10 }).then((p) => p.rows)

async function openLogs(hash = '#/logs'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.goto(`${server.url}/console/${hash}`)
  await page.getByTestId('facet-panel').waitFor()
  return { page, errors }
}

const urlQuery = (page: Page) => new URLSearchParams(page.url().split('?')[1] ?? '').get('query')
const visibleIds = (page: Page) => page.getByTestId('call-log-row').evaluateAll((els) => els.slice(0, 10).map((e) => e.getAttribute('data-id')))
/** The facet's values as shown: [label, count] in order. */
const shown = (page: Page, facet: string) =>
  page.getByTestId(`facet-${facet}`).locator('.facet-value').evaluateAll((els) =>
    els.map((e) => [e.querySelector('.facet-label')?.textContent ?? '', e.querySelector('.facet-count')?.textContent ?? '']),
  )
const fmt = (n: number) => n.toLocaleString('en-US')

describe('facets', () => {
  it('filters a tenant in by a click: rows, counts and the query follow; the minus filters it out', async () => {
    const { page, errors } = await openLogs()
    const all = await facets({})
    expect(all.tenants.length).toBeGreaterThan(1)
    const [first, second] = all.tenants
    await expect.poll(() => shown(page, 'tenant')).toEqual(all.tenants.slice(0, 5).map((t) => [label(t), fmt(t.count)]))
    await screenshot(page, 'facets-all')
    expect(await wcagViolations(page)).toEqual([])

    // In: only the second tenant's lines, its count the total, the agents those of that tenant.
    await page.getByRole('button', { name: `Filter in tenant ${second!.name} ${fmt(second!.count)}` }).click()
    const inQuery = `tenant:"${second!.name}"`
    await expect.poll(() => urlQuery(page)).toBe(inQuery)
    await expect.poll(() => page.getByLabel('Query', { exact: true }).inputValue()).toBe(inQuery)
    const only = await facets({ query: inQuery })
    expect(only.tenants.map((t) => [t.value, t.count])).toEqual([[second!.value, second!.count]])
    await expect.poll(() => shown(page, 'tenant')).toEqual([[second!.name, fmt(second!.count)]])
    await expect.poll(() => shown(page, 'agent')).toEqual(only.agents.slice(0, 5).map((a) => [label(a), fmt(a.count)]))
    await expect.poll(() => visibleIds(page)).toEqual((await search({ query: inQuery })).map((r) => r.id))
    await expect.poll(() => page.getByTestId('call-log-count').innerText()).toMatch(new RegExp(`^${fmt(second!.count)} matching`))
    expect(await page.getByRole('button', { name: new RegExp(`^Stop filtering in tenant ${second!.name}`) }).getAttribute('aria-pressed')).toBe('true')
    await screenshot(page, 'facets-tenant-in')

    // Out, from the same row: the term turns into its negation, the tenant is gone from the rows.
    await page.getByRole('button', { name: `Filter out tenant ${second!.name}` }).click()
    const outQuery = `-tenant:"${second!.name}"`
    await expect.poll(() => urlQuery(page)).toBe(outQuery)
    const rest = await search({ query: outQuery })
    expect(rest.every((r) => r.tenant_id !== second!.value)).toBe(true)
    await expect.poll(() => visibleIds(page)).toEqual(rest.map((r) => r.id))
    // It stays listed, first and without a count, so the filter can be taken back where it was put.
    await expect.poll(async () => (await shown(page, 'tenant')).slice(0, 2)).toEqual([[second!.name, ''], [first!.name, fmt(first!.count)]])
    await expect.poll(() => page.getByTestId('facet-tenant').getByText('excluded').count()).toBe(1)
    await screenshot(page, 'facets-tenant-out')
    await page.getByRole('button', { name: `Stop filtering out tenant ${second!.name}` }).click()
    await expect.poll(() => urlQuery(page)).toBeNull()
    expect(errors).toEqual([])
    await page.close()
  })

  it('counts the values of a details key picked from those of recent lines, and filters by one', async () => {
    const { page, errors } = await openLogs('#/logs?level=error')
    const keys = await trpc<{ keys: Array<{ key: string }> }>('callLogs.detailsKeys', { filter: { levels: ['error'] } })
    expect(keys.keys.map((k) => k.key)).toContain('provider')
    await page.getByTestId('details-key').click()
    await page.getByRole('option', { name: /^details\.provider \(/ }).click()
    const facet = await trpc<{ values: Array<{ value: string; count: number }>; linesRead: number; linesWithKey: number }>('callLogs.detailsFacet', { filter: { levels: ['error'] }, key: 'provider' })
    expect(facet.values.length).toBeGreaterThan(1)
    await expect.poll(() => shown(page, 'details.provider')).toEqual(facet.values.slice(0, 5).map((v) => [v.value, fmt(v.count)]))
    expect(await page.getByTestId('details-note').innerText()).toMatch(new RegExp(`in all ${fmt(facet.linesRead)} matching lines; ${fmt(facet.linesWithKey)} have details\\.provider`))
    await screenshot(page, 'facets-details')
    expect(await wcagViolations(page)).toEqual([])

    const top = facet.values[0]!
    await page.getByRole('button', { name: `Filter in details.provider ${top.value} ${fmt(top.count)}` }).click()
    const query = `details.provider:"${top.value}"`
    await expect.poll(() => urlQuery(page)).toBe(query)
    await expect.poll(() => visibleIds(page)).toEqual((await search({ levels: ['error'], query })).map((r) => r.id))
    await expect.poll(() => shown(page, 'details.provider')).toEqual([[top.value, fmt(top.count)]])
    // A second click takes the filter away again.
    await page.getByRole('button', { name: new RegExp(`^Stop filtering in details.provider ${top.value}`) }).click()
    await expect.poll(() => urlQuery(page)).toBeNull()
    expect(errors).toEqual([])
    await page.close()
  })

  it('filters a level in through the level filter and out through the query', async () => {
    const { page, errors } = await openLogs()
    const all = await facets({})
    const debug = all.levels.find((l) => l.value === 'debug')!
    await page.getByRole('button', { name: `Filter in level debug ${fmt(debug.count)}` }).click()
    await expect.poll(() => new URLSearchParams(page.url().split('?')[1]).get('level')).toBe('debug')
    // The other levels stay counted beside it (the level facet leaves its own filter out).
    await expect.poll(async () => (await shown(page, 'level')).length).toBe(Math.min(5, all.levels.length))
    await page.getByRole('button', { name: 'Filter out level debug' }).click()
    await expect.poll(() => urlQuery(page)).toBe('-level:debug')
    expect(new URLSearchParams(page.url().split('?')[1]).get('level')).toBeNull()
    await expect.poll(() => page.getByTestId('facet-level').getByText('excluded').count()).toBe(1)
    await screenshot(page, 'facets-level-out')
    expect(errors).toEqual([])
    await page.close()
  })
})
