import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { collectErrors, screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { trpcHttp } from '../helpers/trpc-http'

let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string
let dbPath: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-agents.sqlite`
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(dbPath))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

const auth = () => ({ Authorization: `Bearer ${sessionToken}` })
const { query: trpc } = trpcHttp(() => server.url, () => sessionToken)
const rest = async <T>(path: string): Promise<T> => (await (await fetch(`${server.url}${path}`, { headers: auth() })).json()) as T

/** Reads the demo store directly (read-only) to pick conversations with given traits. */
function pickConversation(where: string): string {
  const db = new Database(dbPath, { readonly: true })
  try {
    const row = db.prepare(`select c.id from conversations c where ${where} order by c.created_at desc limit 1`).get() as { id: string } | undefined
    if (!row) throw new Error(`no conversation where ${where}`)
    return row.id
  } finally {
    db.close()
  }
}

async function openConsole(hash = ''): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  if (hash) {
    await page.waitForURL(/#\/overview/)
    await page.goto(`${server.url}/console/#${hash}`)
  }
  return { page, errors }
}

type Agent = { id: string; name: string; session_count: number }
type SessionList = { sessions: Array<{ conversation_id: string }>; total: number; limit: number; offset: number }

const sessionIds = (page: Page) => page.getByTestId('sessions-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-session-id')))

describe('overview, agents and transcripts in Chromium', () => {
  it('lands on the overview, with counts, charts, busiest agents and recent errors', async () => {
    const { page, errors } = await openConsole()
    await page.getByTestId('overview').waitFor()
    expect(page.url()).toMatch(/#\/overview$/)
    const overview = await trpc<{ counts: Record<string, number>; busiest_agents: Array<{ agent_name: string }>; recent_errors: unknown[] }>('overview.get')
    expect(await page.getByTestId('count-agents').locator('p').last().innerText()).toBe(overview.counts.agents!.toLocaleString('en-US'))
    expect(await page.getByTestId('count-call-logs').locator('p').last().innerText()).toBe(overview.counts.call_logs!.toLocaleString('en-US'))
    await page.locator('[data-testid="volume-chart"] .recharts-bar-rectangle').first().waitFor()
    await page.locator('[data-testid="error-rate-chart"] .recharts-line').first().waitFor()
    const busiest = await page.getByTestId('busiest-agents').locator('tbody tr td:nth-child(2)').allInnerTexts()
    expect(busiest).toEqual(overview.busiest_agents.map((a) => a.agent_name))
    expect(await page.getByTestId('recent-errors').locator('tbody tr').count()).toBe(overview.recent_errors.length)
    expect(await page.getByTestId('recent-errors').locator('a[href*="#/logs?"]').count()).toBeGreaterThan(0)
    await screenshot(page, 'overview')
    expect(errors, errors.join('\n')).toEqual([])
    await page.close()
  })

  it('lists agents as the API does, filtered by tenant and search', async () => {
    const { page, errors } = await openConsole('/agents')
    await page.getByTestId('agents-table').waitFor()
    const all = await trpc<Agent[]>('agents.list', {})
    await expect.poll(() => page.getByTestId('agents-table').locator('tbody tr td:first-child').allInnerTexts()).toEqual(all.map((a) => a.name))
    await screenshot(page, 'agents')
    const term = all[0]!.name.slice(0, 3).toLowerCase()
    await page.getByLabel('Search agents').fill(term)
    await expect.poll(() => page.url()).toContain(`q=${term}`)
    const matching = await trpc<Agent[]>('agents.list', { search: term })
    await expect.poll(() => page.getByTestId('agents-table').locator('tbody tr td:first-child').allInnerTexts()).toEqual(matching.map((a) => a.name))
    expect(errors).toEqual([])
    await page.close()
  })

  it("pages an agent's sessions exactly as GET /agents/{id}/sessions does", async () => {
    const agents = await trpc<Agent[]>('agents.list', {})
    const agent = [...agents].sort((a, b) => b.session_count - a.session_count)[0]!
    expect(agent.session_count).toBeGreaterThan(30)
    const { page, errors } = await openConsole(`/agents/${agent.id}?page=2&size=10`)
    await page.getByTestId('agent-name').waitFor()
    const page2 = await rest<SessionList>(`/agents/${agent.id}/sessions?limit=10&offset=10`)
    await expect.poll(() => sessionIds(page)).toEqual(page2.sessions.map((s) => s.conversation_id))
    expect(await page.getByTestId('sessions-range').innerText()).toBe(`11–20 of ${page2.total.toLocaleString('en-US')}`)
    // The pagination control moves through the same pages, and the page goes into the URL.
    await page.getByTestId('sessions-pagination').getByRole('button', { name: '3', exact: true }).click()
    await expect.poll(() => page.url()).toContain('page=3')
    const page3 = await rest<SessionList>(`/agents/${agent.id}/sessions?limit=10&offset=20`)
    await expect.poll(() => sessionIds(page)).toEqual(page3.sessions.map((s) => s.conversation_id))
    // A new page size starts again at page 1.
    await page.getByRole('combobox', { name: 'Sessions per page' }).click()
    await page.getByRole('option', { name: '50', exact: true }).click()
    await expect.poll(() => page.url()).toMatch(/page=1&size=50/)
    const first50 = await rest<SessionList>(`/agents/${agent.id}/sessions?limit=50&offset=0`)
    await expect.poll(() => sessionIds(page)).toEqual(first50.sessions.map((s) => s.conversation_id))
    await page.goto(`${server.url}/console/#/agents/${agent.id}?page=1&size=20`)
    await expect.poll(async () => (await sessionIds(page)).length).toBe(20)
    await screenshot(page, 'agent-sessions')
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a transcript with tool calls inline and a link to its call logs', async () => {
    const id = pickConversation(`c.language = 'en' and exists (select 1 from messages m where m.conversation_id = c.id and m.role = 'tool') and exists (select 1 from transfers x where x.conversation_id = c.id)`)
    const { page, errors } = await openConsole(`/sessions/${id}`)
    await page.getByTestId('transcript').waitFor()
    const data = await trpc<{ messages: Array<{ role: string; content: string }> }>('conversations.get', { conversationId: id })
    const spoken = data.messages.filter((m) => (m.role === 'user' || m.role === 'assistant') && m.content)
    expect(await page.getByTestId('message-text').allInnerTexts()).toEqual(spoken.map((m) => m.content))
    expect(await page.getByTestId('tool-call').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('tool-call').first().innerText()).toMatch(/arguments[\s\S]*result/i)
    expect(await page.getByTestId('session-logs-link').getAttribute('href')).toBe(`#/logs?session=${id}`)
    await screenshot(page, 'transcript')
    expect(errors).toEqual([])
    await page.close()
  })

  it('renders an Arabic transcript right to left', async () => {
    const id = pickConversation(`c.language = 'ar' and exists (select 1 from messages m where m.conversation_id = c.id and m.role = 'tool')`)
    const { page, errors } = await openConsole(`/sessions/${id}`)
    await page.getByTestId('transcript').waitFor()
    const texts = page.getByTestId('message-text')
    expect(await texts.count()).toBeGreaterThan(1)
    const dirs = await texts.evaluateAll((els) => els.map((e) => [e.getAttribute('dir'), (globalThis as unknown as { getComputedStyle: (el: unknown) => { direction: string } }).getComputedStyle(e).direction]))
    expect(new Set(dirs.map((d) => d.join()))).toEqual(new Set(['rtl,rtl']))
    expect(await texts.first().innerText()).toMatch(/[\u0600-\u06FF]/)
    await screenshot(page, 'transcript-rtl')
    expect(errors).toEqual([])
    await page.close()
  })
})
