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
 * into the query line; checked against the service's own answers. Facets that read the lines
 * (point 6) are shown as they go, marked partial: held there by cutting their stream.
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

  it('shows facets that read the lines as they go: newest slices first, marked partial, then whole', async () => {
    // A details key without an index of its own: its lines are read in time slices.
    const query = 'details.language:fr'
    const whole = await facets({ query })
    const { page, errors } = await openLogs()
    await page.getByTestId('call-log-row').first().waitFor()
    // Every text the status line shows, as it changes.
    await page.evaluate(`(() => {
      const seen = (window.facetStatuses = [])
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="facets-status"]')?.textContent ?? ''
        if (text && seen.at(-1) !== text) seen.push(text)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })()`)
    // The query's first stream of answers is cut after its first two (partial) ones, and the
    // client's reconnection held until the partial state has been looked at: then the whole runs.
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let calls = 0
    let kept: Facets[] = []
    await page.route('**/trpc/callLogs.facetsProgress**', async (route) => {
      if (!decodeURIComponent(route.request().url()).includes(query)) return route.continue()
      if (++calls > 1) {
        await released
        return route.continue()
      }
      const events = (await (await route.fetch()).text()).split('\n\n').filter((e) => e.trim())
      const answers = events.filter((e) => /data: \{"answer"/.test(e))
      expect(answers.length).toBeGreaterThan(2)
      kept = answers.slice(0, 2).map((e) => (JSON.parse(e.slice(e.indexOf('data: ') + 6)) as { answer: Facets }).answer)
      const body = [...events.filter((e) => /event: connected/.test(e)), ...answers.slice(0, 2)]
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' }, body: `${body.join('\n\n')}\n\n` })
    })
    await page.getByLabel('Query', { exact: true }).fill(query)
    await page.getByLabel('Query', { exact: true }).press('Enter')
    await expect.poll(() => urlQuery(page)).toBe(query)

    const badge = page.getByTestId('facets-partial')
    await badge.waitFor()
    expect(await badge.innerText()).toMatch(/^Partial, \d{1,2}% scanned$/i)
    const percent = (await badge.innerText()).match(/(\d+)%/)![1]
    // Its reconnection held, the count is still under way for the console.
    expect(await page.getByTestId('facets-status').innerText()).toBe(`Counting: the newest ${percent}% of the range counted…`)
    // What is shown is the second partial answer: within the whole, and less than it in all.
    const partial = kept[1]!
    await expect.poll(() => shown(page, 'tenant')).toEqual(partial.tenants.slice(0, 5).map((t) => [label(t), fmt(t.count)]))
    const wholeOf = new Map(whole.tenants.map((t) => [t.value, t.count]))
    for (const t of partial.tenants) expect(t.count).toBeLessThanOrEqual(wholeOf.get(t.value)!)
    const sum = (f: Facets) => f.levels.reduce((n, l) => n + l.count, 0)
    expect(sum(partial)).toBeGreaterThan(0)
    expect(sum(partial)).toBeLessThan(sum(whole))
    expect(await page.getByTestId('call-log-count').innerText()).toMatch(new RegExp(`^${fmt(sum(partial))} matching so far · `))
    await screenshot(page, 'facets-partial')
    expect(await wcagViolations(page)).toEqual([])

    release()
    await badge.waitFor({ state: 'detached', timeout: 15_000 })
    await expect.poll(() => shown(page, 'tenant'), { timeout: 15_000 }).toEqual(whole.tenants.slice(0, 5).map((t) => [label(t), fmt(t.count)]))
    await expect.poll(() => shown(page, 'agent')).toEqual(whole.agents.slice(0, 5).map((a) => [label(a), fmt(a.count)]))
    await expect.poll(() => page.getByTestId('call-log-count').innerText()).toMatch(new RegExp(`^${fmt(sum(whole))} matching · `))
    const statuses = (await page.evaluate('window.facetStatuses')) as string[]
    // The cut stream's answers, then the whole count's from its start: each run grows.
    const shares = statuses.filter((t) => /^Counting: the newest \d+% of the range counted/.test(t)).map((t) => Number(t.match(/newest (\d+)%/)![1]))
    expect(shares.length).toBeGreaterThanOrEqual(4)
    const [cut, again] = [shares.slice(0, 2), shares.slice(2)]
    for (const run of [cut, again]) expect(run).toEqual([...new Set(run)].sort((a, b) => a - b))
    expect(again[0]).toBe(cut[0])
    expect(await page.getByTestId('facets-status').innerText()).toBe('')
    await screenshot(page, 'facets-complete')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('leaves a count under way for a new filter: its stream is closed, the new filter counted and shown whole', async () => {
    const query = 'details.language:fr'
    const { page, errors } = await openLogs()
    await page.getByTestId('call-log-row').first().waitFor()
    // The query's count is cut after its first answer, and the client's reconnection held open.
    let calls = 0
    let held!: () => void
    const holding = new Promise<void>((resolve) => (held = resolve))
    const abandoned: string[] = []
    // The query's own count (the next filter adds levels to it).
    const isOld = (url: string) => url.includes('facetsProgress') && decodeURIComponent(url).includes(query) && !decodeURIComponent(url).includes('"levels"')
    page.on('requestfailed', (request) => {
      if (isOld(request.url())) abandoned.push(request.failure()?.errorText ?? '')
    })
    await page.route('**/trpc/callLogs.facetsProgress**', async (route) => {
      if (!isOld(route.request().url())) return route.continue()
      if (++calls > 1) {
        held()
        return new Promise<void>(() => {})
      }
      const events = (await (await route.fetch()).text()).split('\n\n').filter((e) => e.trim())
      const first = [...events.filter((e) => /event: connected/.test(e)), events.find((e) => /data: \{"answer"/.test(e))!]
      await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${first.join('\n\n')}\n\n` })
    })
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/logs?query=${encodeURIComponent(query)}`)}`)
    await page.getByTestId('facets-partial').waitFor()
    await holding
    // A level filtered in (the most common one so far): a new filter, counted from the start and shown whole.
    const level = (await shown(page, 'level'))[0]![0]!
    const next = { query, levels: [level] }
    const wholeNext = await facets(next)
    await page.getByRole('button', { name: new RegExp(`^Filter in level ${level} `) }).click()
    await expect.poll(() => new URLSearchParams(page.url().split('?')[1]).get('level')).toBe(level)
    await page.getByTestId('facets-partial').waitFor({ state: 'detached', timeout: 15_000 })
    await expect.poll(() => shown(page, 'tenant'), { timeout: 15_000 }).toEqual(wholeNext.tenants.slice(0, 5).map((t) => [label(t), fmt(t.count)]))
    await expect.poll(() => page.getByTestId('call-log-count').innerText()).toMatch(new RegExp(`^${fmt(wholeNext.levels.find((l) => l.value === level)!.count)} matching · `))
    // The old filter's stream, still open, was closed by the console, not left to run.
    await expect.poll(() => abandoned.length).toBe(1)
    expect(calls).toBe(2)
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('asks nothing of the server for a link whose query does not parse, and shows no count for it', async () => {
    const { page, errors } = await openLogs(`#/logs?query=${encodeURIComponent('details.language:xx')}`)
    await expect.poll(() => page.getByTestId('call-log-count').innerText(), { timeout: 15_000 }).toMatch(/^0 matching/)
    const refused: string[] = []
    page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`))
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/logs?query=${encodeURIComponent('level:(')}`)}`)
    await page.getByTestId('query-invalid').waitFor()
    // The last query's "0 matching" is not shown under one that was not run.
    await expect.poll(() => page.getByTestId('call-log-count').innerText()).toBe('')
    // Its facets and charts stay, dimmed and out of reach (inert: a click would add to a query that does not parse),
    // and the level drop-down shows no count.
    for (const part of ['facets-aside', 'charts']) expect(await page.getByTestId(part).getAttribute('inert'), part).not.toBeNull()
    await page.getByTestId('level-filter').click()
    await expect.poll(() => page.getByRole('option').allInnerTexts()).toEqual(['debug', 'info', 'warning', 'error', 'critical'])
    await page.keyboard.press('Escape')
    // The box says where the link's query is wrong.
    await expect.poll(() => page.getByTestId('query-error').innerText()).toMatch(/^Column 7: /)
    await screenshot(page, 'facets-query-invalid')
    expect(await wcagViolations(page)).toEqual([])
    // Corrected, it runs: the parts come back.
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#/logs?query=${encodeURIComponent('level:error')}`)}`)
    await expect.poll(() => page.getByTestId('call-log-count').innerText(), { timeout: 15_000 }).toMatch(/ matching/)
    for (const part of ['facets-aside', 'charts']) expect(await page.getByTestId(part).getAttribute('inert'), part).toBeNull()
    expect(refused).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

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
