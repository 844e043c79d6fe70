import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import { runCliAsync, type ServeProcess } from '../helpers/cli'
import { openConsolePage, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15: a support engineer pulls a customer's backend (here a second Callscope on loopback)
 * into an empty store with the CLI, opens the console on it, and finds the backend's squads and
 * agents there: the squad's analytics as pulled, for the period pulled, and an agent's sessions as
 * the backend lists them.
 */

let remote: TestServer
let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string

beforeAll(async () => {
  remote = await startTestServer()
  const dbPath = `${tempDir()}/e2e-mirror.sqlite`
  const pull = await runCliAsync(['pull', '--base-url', remote.url, '--since', '2000-01-01', '--rate', '1000', '--db', dbPath], { CALLSCOPE_REMOTE_TOKEN: ADMIN_TOKEN })
  expect(pull.stderr).toBe('')
  expect(pull.status).toBe(0)
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(dbPath))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await remote?.close()
})

const remoteOne = <T>(query: string) => remote.sqlite.prepare(query).get() as T

describe('a mirror in the console', () => {
  it("shows a pulled squad's analytics as pulled, for the period pulled", async () => {
    const squadCount = (remote.sqlite.prepare('select count(*) from squads').pluck().get() as number)
    const { page, errors } = await openConsolePage(browser, signInLink, '#/squads', 'squads-table')
    await expect.poll(() => page.getByTestId('pulled-squad').count()).toBe(squadCount)
    await screenshot(page, 'mirror-squads')

    // The busiest squad, opened from the list.
    const squad = remoteOne<{ id: string; name: string }>('select s.id, s.name from squads s order by (select count(*) from conversations c where c.squad_id = s.id) desc, s.id limit 1')
    await page.getByRole('link', { name: squad.name, exact: true }).click()
    await page.getByTestId('pulled-note').waitFor()
    expect(await page.getByTestId('squad-name').innerText()).toBe(squad.name)
    // The period shown is the one the pull asked for; the figures are the backend's for it. (Asked
    // with dates, the mirror answers the pulled range; without, the source's own default period:
    // docs/api.md, "A mirror and the clock".)
    const mirrored = await fetch(`${server.url}/squads/${squad.id}/analytics?start_date=2000-01-01T00:00:00Z`, { headers: { Authorization: `Bearer ${sessionToken}` } })
    const [start, end] = mirrored.headers.get('callscope-pulled-period')!.split('/')
    const truth = (await (await remote.get(`/squads/${squad.id}/analytics?start_date=${encodeURIComponent(start!)}&end_date=${encodeURIComponent(end!)}`)).json()) as {
      session_distribution: { total_sessions: number }
      transfer_statistics: { total: number }
    }
    expect(truth.session_distribution.total_sessions).toBeGreaterThan(0)
    expect(await page.getByTestId('stat-sessions').innerText()).toBe(truth.session_distribution.total_sessions.toLocaleString('en-US'))
    const date = (iso: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso))
    expect(await page.getByTestId('pulled-period').innerText()).toBe(`${date(start!)} – ${date(end!)} UTC`)
    expect(await page.getByTestId('pulled-note').innerText()).toContain(`Pulled from ${remote.url}`)
    // No period control: it cannot change figures that were not computed here.
    expect(await page.getByRole('radiogroup', { name: 'Period' }).isVisible()).toBe(false)
    await screenshot(page, 'mirror-squad')
    expect(await wcagViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it("shows a pulled agent's sessions as the backend lists them", async () => {
    const agent = remoteOne<{ agent_id: string; n: number }>('select agent_id, count(*) as n from conversations group by agent_id order by n desc, agent_id limit 1')
    const { page, errors } = await openConsolePage(browser, signInLink, '#/agents', 'agents-table')
    await expect.poll(() => page.getByTestId('pulled-agent').count()).toBeGreaterThan(5)
    await screenshot(page, 'mirror-agents')

    // Named as the pulled squad analytics name their members; by its id when no squad lists it.
    const member = remote.sqlite.prepare('select a.name from agents a where a.id = ? and exists (select 1 from squad_members m where m.agent_id = a.id)').pluck().get(agent.agent_id) as string | undefined
    await page.locator(`a[href="#/agents/${agent.agent_id}"]`).click()
    await page.getByTestId('agent-pulled-note').waitFor()
    expect(await page.getByTestId('agent-name').innerText()).toBe(member ?? agent.agent_id)
    const first = (await (await remote.get(`/agents/${agent.agent_id}/sessions?limit=20&offset=0`)).json()) as { sessions: Array<{ conversation_id: string }>; total: number }
    await expect.poll(() => page.getByTestId('sessions-range').innerText()).toBe(`1–20 of ${agent.n.toLocaleString('en-US')}`)
    expect(first.total).toBe(agent.n)
    const rows = page.getByTestId('sessions-table').locator('tbody tr')
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session-id')))).toEqual(first.sessions.map((s) => s.conversation_id))
    await screenshot(page, 'mirror-agent')
    expect(await wcagViolations(page)).toEqual([])

    // A pulled session has no transcript here: its row opens its log lines in the explorer.
    await rows.first().getByRole('link').click()
    await page.waitForURL(new RegExp(`#/logs\\?session=${first.sessions[0]!.conversation_id}`))
    expect(errors).toEqual([])
    await page.close()
  })

  it("shows an LLM provider's details as the backend gave them", async () => {
    const { page, errors } = await openConsolePage(browser, signInLink, '#/providers', 'llm-pulled-note')
    expect(await page.getByTestId('llm-pulled-note').innerText()).toContain(`Pulled from ${remote.url}`)
    const truth = (await (await remote.get('/admin/providers/llm/openai')).json()) as { agents: { count: number } }
    expect(await page.getByTestId('llm-agents').innerText()).toContain(truth.agents.count.toLocaleString('en-US'))
    await screenshot(page, 'mirror-provider')
    expect(errors).toEqual([])
    await page.close()
  })
})
