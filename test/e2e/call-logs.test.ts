import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { collectErrors, screenshot } from '../helpers/browser'
import { pluckAll } from '../helpers/ground-truth'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

let server: ServeProcess
let browser: Browser
let signInLink: string
let token: string
let dbPath: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-logs.sqlite`
  ;({ server, browser, signInLink, sessionToken: token } = await startConsoleSession(dbPath))
}, 90_000)

/** The store read directly (read-only): the ground truth the page is checked against. */
const truth = <T>(query: string, ...params: unknown[]): T[] => pluckAll<T>(dbPath, query, ...params)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const auth = () => ({ Authorization: `Bearer ${token}` })
const { query: trpc } = trpcHttp(() => server.url, () => token)
type Line = { id: string; message: string; log_level: string; call_id: string | null }
const search = (filter: Record<string, unknown>, limit = 50) => trpc<{ rows: Line[] }>('callLogs.search', { filter, limit }).then((p) => p.rows)

async function openLogs(hash = '#/logs'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.goto(`${server.url}/console/${hash}`)
  await page.getByTestId('call-log-table').waitFor()
  return { page, errors }
}

const visibleIds = (page: Page, n = 10) =>
  page.getByTestId('call-log-row').evaluateAll((els, count) => els.slice(0, count).map((e) => e.getAttribute('data-id')), n)
const sortedIds = (page: Page) =>
  // Virtual rows render in DOM order = list order; the first ones are what the API returns first.
  visibleIds(page, 10)

describe('call logs page in Chromium', () => {
  it('lists the newest lines as the API does, with the histogram, and no console errors', async () => {
    const { page, errors } = await openLogs()
    const expected = (await search({}, 10)).map((r) => r.id)
    await expect.poll(() => sortedIds(page)).toEqual(expected)
    // The REST listing agrees on the newest line.
    const rest = (await (await fetch(`${server.url}/logs/calls?limit=1`, { headers: auth() })).json()) as Line[]
    expect(rest[0]!.id).toBe(expected[0])
    await page.getByTestId('call-log-histogram').locator('.recharts-area-area').first().waitFor()
    await expect.poll(() => page.getByTestId('call-log-count').innerText()).toMatch(/matching/)
    await screenshot(page, 'call-logs')
    expect(errors).toEqual([])
    await page.close()
  })

  it('filters by level and by text, matching the tRPC procedure, and keeps both in the URL', async () => {
    const { page, errors } = await openLogs()
    await page.getByTestId('level-filter').click()
    await page.getByRole('option', { name: /^error/ }).click()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.url()).toContain('level=error')
    const errorsOnly = (await search({ levels: ['error'] }, 10)).map((r) => r.id)
    expect(errorsOnly.length).toBeGreaterThan(0)
    await expect.poll(() => sortedIds(page)).toEqual(errorsOnly)

    const word = (await search({ levels: ['error'] }, 1))[0]!.message.match(/[A-Za-z]{5,}/)![0]
    await page.getByLabel('Query', { exact: true }).fill(word)
    await expect.poll(() => new URLSearchParams(page.url().split('?')[1]).get('query')).toBe(word)
    const matched = await search({ levels: ['error'], query: word }, 10)
    await expect.poll(() => sortedIds(page)).toEqual(matched.map((r) => r.id))
    await expect.poll(() => page.getByTestId('call-log-message').first().locator('mark').count()).toBeGreaterThan(0)

    await page.getByLabel('Query', { exact: true }).fill('zzqx no line says this')
    await page.getByText('No log line matches this filter.').waitFor()
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows the lines around a line in time, of every source, its tenant or its agent, and widens on request', async () => {
    const anchor = (await search({ levels: ['error'] }, 50)).find((r) => r.call_id)!
    const { page, errors } = await openLogs(`#/logs?level=error&line=${anchor.id}`)
    await page.getByTestId('details-context').waitFor()
    expect(await page.getByTestId('context-title').innerText()).toBe('Around it in the same call')
    const contextIds = () => page.getByTestId('details-context').locator('[role=button]').evaluateAll((els) => els.map((e) => e.getAttribute('data-line-id')))
    const around = (where: string, n: number, ...params: unknown[]) => {
      const [ts, seq] = [truth<string>('select timestamp from call_logs where id = ?', anchor.id)[0], truth<number>('select seq from call_logs where id = ?', anchor.id)[0]]
      const before = truth<string>(`select id from call_logs where ${where} (timestamp, seq) < (?, ?) order by timestamp desc, seq desc limit ${n}`, ...params, ts, seq).reverse()
      const after = truth<string>(`select id from call_logs where ${where} (timestamp, seq) > (?, ?) order by timestamp, seq limit ${n}`, ...params, ts, seq)
      return [...before, anchor.id, ...after]
    }
    expect(await contextIds()).toEqual(around('call_id = ? and', 15, anchor.call_id))

    await page.getByTestId('context-scope').getByText('In time').click()
    await expect.poll(() => page.getByTestId('context-title').innerText()).toBe('Around it in time')
    await expect.poll(contextIds).toEqual(around('', 15))
    await page.getByTestId('context-same').getByText('Its agent').click()
    await expect.poll(() => page.getByTestId('context-title').innerText()).toBe("Around it in time, its agent's lines")
    const agent = truth<string>('select agent_id from call_logs where id = ?', anchor.id)[0]
    await expect.poll(contextIds).toEqual(around('agent_id = ? and', 15, agent))
    await page.waitForTimeout(400) // the drawer's slide-in transition
    await screenshot(page, 'call-logs-context-time')
    await page.getByTestId('context-wider').click()
    await expect.poll(contextIds).toEqual(around('agent_id = ? and', 30, agent))
    expect(await page.getByTestId('context-wider').innerText()).toBe('Show 60 before and after')
    expect(errors).toEqual([])
    await page.close()
  })

  it('opens the details of a line, pivots to the same call, and moves with the keyboard', async () => {
    const withCall = (await search({ levels: ['error'] }, 50)).find((r) => r.call_id)!
    const { page, errors } = await openLogs(`#/logs?level=error`)
    await page.locator(`[data-id="${withCall.id}"]`).click()
    await page.getByTestId('details-body').waitFor()
    await expect.poll(() => page.url()).toContain(`line=${withCall.id}`)
    expect(await page.getByTestId('details-fields').innerText()).toContain(withCall.message)
    expect(await page.getByTestId('details-origin').innerText()).toBe('Created in this store (seeded or local), not imported or pulled.')
    await page.getByTestId('details-context').waitFor()
    await page.waitForTimeout(400) // the drawer's slide-in transition
    await screenshot(page, 'call-logs-details')

    await page.getByRole('button', { name: 'Same call' }).click()
    await expect.poll(() => page.url()).toContain(`call=${withCall.call_id}`)
    const sameCall = await search({ levels: ['error'], callId: withCall.call_id }, 500)
    await expect.poll(() => page.getByTestId('call-log-row').count()).toBe(sameCall.length)
    await page.getByRole('button', { name: 'Remove call filter' }).waitFor()

    // Esc closes and the selection stays on the line that was open; j moves it to the next line, Enter opens that.
    await page.keyboard.press('Escape')
    await expect.poll(() => page.url()).not.toContain('line=')
    await page.locator('body').click({ position: { x: 5, y: 5 } })
    await page.keyboard.press('j')
    await page.keyboard.press('Enter')
    const open = sameCall.findIndex((r) => r.id === withCall.id)
    expect(open).toBeGreaterThanOrEqual(0)
    await expect.poll(() => page.url()).toContain(`line=${sameCall[Math.min(open + 1, sameCall.length - 1)]!.id}`)
    expect(errors).toEqual([])
    await page.close()
  })

  it('reproduces a view from a deep link, line included', async () => {
    const target = (await search({ levels: ['warning'] }, 5))[2]!
    const { page, errors } = await openLogs(`#/logs?level=warning&line=${target.id}`)
    await page.getByTestId('details-body').waitFor()
    expect(await page.getByTestId('details-fields').innerText()).toContain(target.id)
    await expect.poll(() => sortedIds(page)).toEqual((await search({ levels: ['warning'] }, 10)).map((r) => r.id))
    await expect.poll(() => page.locator(`[data-id="${target.id}"]`).getAttribute('aria-selected')).toBe('true')
    expect(errors).toEqual([])
    await page.close()
  })

  it('exports the filtered view as CSV and NDJSON with the bearer token', async () => {
    const ndjson = await fetch(`${server.url}/export/call-logs.ndjson?level=error`, { headers: auth() })
    expect(ndjson.headers.get('content-type')).toContain('application/x-ndjson')
    const lines = (await ndjson.text()).trim().split('\n').map((l) => JSON.parse(l) as Line)
    expect(lines.every((l) => l.log_level === 'error')).toBe(true)
    expect(lines.slice(0, 10).map((l) => l.id)).toEqual((await search({ levels: ['error'] }, 10)).map((r) => r.id))
    const csv = await fetch(`${server.url}/export/call-logs.csv?level=error`, { headers: auth() })
    expect((await csv.text()).startsWith('id,tenant_id,log_type,log_level,message,')).toBe(true)
    expect((await fetch(`${server.url}/export/call-logs.csv`)).status).toBe(401)
    expect((await fetch(`${server.url}/export/call-logs.csv?level=nope`, { headers: auth() })).status).toBe(422)
    const openapi = await (await fetch(`${server.url}/openapi.json`)).text()
    expect(openapi).not.toContain('/export/')
  })
})
