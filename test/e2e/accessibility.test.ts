import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import type { ServeProcess } from '../helpers/cli'
import { startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/test-server'
import { trpcHttp } from '../helpers/trpc-http'

/**
 * Every page of the console, every dialog it opens and its empty, error and sign-in states, in the
 * light and the dark colour scheme, checked by axe-core against WCAG 2.0 and 2.1, levels A and AA.
 * A violation fails with its rule, the elements and axe's summary of what to fix. Then the
 * keyboard alone: the call log explorer, a table's links and rows, and the dialogs.
 */


let server: ServeProcess
let browser: Browser
let signInLink: string
let sessionToken: string
let remote: TestServer
/** Records the pages open, found through the API once the store is filled. */
const ids = { tenant: '', agent: '', conversation: '', squad: '', pulledSquad: '', line: '', call: '', viewerToken: '', revokedToken: '' }

const { query: trpcQuery, mutation: trpcMutation } = trpcHttp(() => server.url, () => sessionToken)

beforeAll(async () => {
  ;({ server, browser, signInLink, sessionToken } = await startConsoleSession(`${tempDir()}/e2e-a11y.sqlite`))
  remote = await startTestServer()
  // The data page with something in it: an import with a refused record, and a finished pull
  // (whose documents the "Fetched from" dialog lists).
  const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
  const records = [1, 2, 3].map((n) => ({ id: uuid(n), tenant_id: uuid(0), log_type: 'sip', log_level: n === 3 ? 'loud' : 'error', message: `INVITE ${n}`, timestamp: `2020-01-03T07:00:0${n}.000Z` }))
  const upload = await fetch(`${server.url}/imports/call-logs?file_name=carrier.ndjson`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sessionToken}`, 'Content-Type': 'application/octet-stream' },
    body: records.map((r) => JSON.stringify(r)).join('\n'),
  })
  expect(upload.status).toBe(201)
  await trpcMutation('pulls.start', { baseUrl: remote.url, token: ADMIN_TOKEN, since: '2026-11-19' })
  await vi.waitFor(
    async () => {
      const status = (await trpcQuery<Array<{ status: string }>>('pulls.list', { limit: 1 }))[0]?.status
      if (status !== 'completed') throw new Error(`the pull is ${status}`)
    },
    { timeout: 60_000, interval: 250 },
  )

  ids.tenant = (await trpcQuery<Array<{ id: string }>>('tenants.list', {}))[0]!.id
  // The tenant's Webhooks tab with a delivery (to this server's own inbox) and an accepted and a rejected inbox event.
  await trpcMutation('webhooks.setSecret', { tenantId: ids.tenant })
  await trpcMutation('webhooks.setSettings', { allow_private_targets: true })
  await trpcMutation('webhooks.testSend', { tenantId: ids.tenant, event: 'call.ended', url: `${server.url}/webhooks/inbox/${ids.tenant}` })
  const forged = { 'content-type': 'application/json', 'webhook-id': 'msg_a11y', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,bm90IGEgc2lnbmF0dXJl' }
  expect((await fetch(`${server.url}/webhooks/inbox/${ids.tenant}`, { method: 'POST', headers: forged, body: '{"type":"call.ended"}' })).status).toBe(401)
  await vi.waitFor(
    async () => {
      const status = (await trpcQuery<{ deliveries: Array<{ status: string }> }>('webhooks.deliveries', { tenantId: ids.tenant, limit: 1 })).deliveries[0]?.status
      if (status !== 'succeeded') throw new Error(`the delivery is ${status}`)
    },
    { timeout: 30_000, interval: 100 },
  )
  const agents = await trpcQuery<Array<{ id: string; session_count: number }>>('agents.list', {})
  ids.agent = agents.find((a) => a.session_count > 0)!.id
  const sessions = await trpcQuery<{ sessions: Array<{ conversation_id: string; message_count: number }> }>('sessions.listForAgent', { agentId: ids.agent, limit: 20, offset: 0 })
  ids.conversation = [...sessions.sessions].sort((a, b) => b.message_count - a.message_count)[0]!.conversation_id
  const squads = await trpcQuery<Array<{ id: string; pulled: object | null }>>('squads.list')
  ids.squad = squads.find((s) => s.pulled === null)!.id
  // The pull above brought squads this store does not have: shown as pulled.
  ids.pulledSquad = squads.find((s) => s.pulled !== null)!.id
  const errors = await trpcQuery<{ rows: Array<{ id: string; call_id: string | null }> }>('callLogs.search', { filter: { levels: ['error'] }, limit: 50 })
  ids.line = errors.rows.find((r) => r.call_id)!.id
  // A call whose transfer failed: turns, an error span and a transfer chain on one page.
  ids.call = (await trpcQuery<{ calls: Array<{ id: string }> }>('calls.list', { query: { end_reason: ['transfer_failed'], limit: 1 } })).calls[0]!.id
  ids.viewerToken = (await trpcMutation<{ token: string }>('tokens.create', { name: 'a11y viewer', role: 'viewer' })).token
  const revoked = await trpcMutation<{ token: string; record: { id: string } }>('tokens.create', { name: 'a11y revoked', role: 'viewer' })
  await trpcMutation('tokens.revoke', { id: revoked.record.id })
  ids.revokedToken = revoked.token
  // A saved view, so the explorer's views menu and dialog list one.
  await trpcMutation('savedViews.create', { name: 'Errors, last 7 days', description: 'Carrier and tool failures', state: { query: 'level:error', from: 'now-7d', cols: ['time', 'level', 'message', 'details.provider'] } })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await remote?.close()
})

/** No CSS transition or finite animation still running (spinners loop forever and are left out). */
const animationsSettled = (page: Page) =>
  // Polled from here: waitForFunction would evaluate in the page, which its CSP (no unsafe-eval) refuses.
  expect
    .poll(() => page.evaluate(`document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)`))
    .toBe(true)

interface Visit {
  name: string
  /** Opens the page, in the signed-in tab or a new one, and waits until it shows what is to be checked. */
  open: (tab: Page) => Promise<Page>
}

/** A new tab signed in with the session's link (or another), moved to the hash, waiting for `ready`. */
async function signedIn(context: BrowserContext, hash: string, ready: (page: Page) => Promise<unknown>, link = signInLink): Promise<Page> {
  const page = await context.newPage()
  await page.goto(link)
  await page.getByTestId('signed-in-as').waitFor()
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`)
  await ready(page)
  return page
}

const testId = (id: string) => (page: Page) => page.getByTestId(id).first().waitFor()
/** A page of the signed-in tab, loaded afresh (the token stays in the tab's sessionStorage), so no state of the last visit is left. */
const page_ = (name: string, hash: () => string, ready: (page: Page) => Promise<unknown>): Visit => ({
  name,
  open: async (tab) => {
    await tab.goto('about:blank')
    await tab.goto(`${server.url}/console/${hash()}`)
    await ready(tab)
    return tab
  },
})

const VISITS: Visit[] = [
  page_('overview', () => '#/overview', (p) => p.getByTestId('volume-chart').locator('.recharts-bar-rectangle').first().waitFor()),
  page_('tenants', () => '#/tenants', testId('tenants-table')),
  page_('tenants-empty', () => '#/tenants?q=no-tenant-is-called-this', testId('empty-state')),
  page_('tenant', () => `#/tenants/${ids.tenant}`, (p) => p.getByText(/ of [\d,]+ calls/).waitFor()),
  page_('tenant-webhooks', () => `#/tenants/${ids.tenant}?tab=webhooks`, async (p) => {
    await p.getByTestId('delivery-log').getByTestId('row-details-toggle').first().click()
    await p.getByTestId('attempt-1').waitFor()
    await p.getByTestId('webhook-inbox').getByTestId('row-details-toggle').first().click()
    await p.getByTestId('inbox-details').waitFor()
  }),
  page_('tenant-webhooks-rotate-dialog', () => `#/tenants/${ids.tenant}?tab=webhooks`, async (p) => {
    await p.getByTestId('secret-create').click()
    await p.getByTestId('secret-rotate-confirm').waitFor()
  }),
  page_('tenant-webhooks-secret-dialog', () => `#/tenants/${ids.tenant}?tab=webhooks`, async (p) => {
    await p.getByTestId('secret-create').click()
    await p.getByTestId('secret-rotate-confirm').click()
    await p.getByTestId('new-secret').waitFor()
  }),
  page_('tenant-not-found', () => '#/tenants/00000000-0000-4000-8000-00000000dead', testId('error-state')),
  page_('agents', () => '#/agents', testId('agents-table')),
  page_('agent', () => `#/agents/${ids.agent}`, testId('sessions-table')),
  page_('session', () => `#/sessions/${ids.conversation}`, testId('transcript')),
  page_('squads', () => '#/squads', testId('squads-table')),
  page_('squad', () => `#/squads/${ids.squad}`, (p) => p.getByTestId('hour-chart').locator('.recharts-bar-rectangle').first().waitFor()),
  page_('squad-pulled', () => `#/squads/${ids.pulledSquad}`, (p) => p.getByTestId('pulled-note').waitFor()),
  page_('calls', () => '#/calls?period=all', (p) => p.getByTestId('calls-table').locator('tbody tr').first().waitFor()),
  page_('call', () => `#/calls/${ids.call}?turn=1`, async (p) => {
    await p.locator('[data-testid="span-row"][data-kind="transfer"] [data-testid="span-toggle"]').first().click()
    await p.getByTestId('span-lines').waitFor()
  }),
  page_('call-logs', () => '#/logs', (p) => p.getByTestId('call-log-histogram').locator('.recharts-area-area').first().waitFor()),
  page_('call-logs-filter-open', () => '#/logs', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('level-filter').click()
    await p.getByRole('option', { name: /^error/ }).waitFor()
  }),
  page_('call-log-details', () => `#/logs?line=${ids.line}`, async (p) => {
    await p.getByTestId('details-context').waitFor()
    await p.getByTestId('call-log-histogram').locator('.recharts-area-area').first().waitFor()
  }),
  // The facet panel with values filtered in and out, and a details key picked with its values.
  page_('call-logs-facets', () => `#/logs?level=error&query=${encodeURIComponent('-type:webhook')}`, async (p) => {
    await p.getByTestId('facet-tenant').getByRole('button', { name: /^Filter in tenant / }).first().waitFor()
    await p.getByTestId('details-key').click()
    await p.getByRole('option', { name: /^details\.provider/ }).click()
    await p.getByTestId('details-note').waitFor()
  }),
  // Count by (issue 17 pt 4): the stacked chart with its legend and the top-N table, of errors by provider.
  page_('call-logs-count-by', () => '#/logs?level=error,critical&by=details.provider', async (p) => {
    await p.getByTestId('count-by-chart').locator('.recharts-bar-rectangle').first().waitFor()
    await p.getByTestId('count-by-row').first().waitFor()
  }),
  // A count shown as it goes, held at its second partial answer (the stream cut there, the client's reconnection never answered).
  {
    name: 'call-logs-count-by-partial',
    open: async (tab) => {
      const page = await tab.context().newPage()
      let calls = 0
      await page.route('**/trpc/callLogs.countByProgress**', async (route) => {
        if (++calls > 1) return new Promise<void>(() => {})
        const events = (await (await route.fetch()).text()).split('\n\n').filter((e) => e.trim())
        const kept = [...events.filter((e) => /event: connected/.test(e)), ...events.filter((e) => /data: \{"answer"/.test(e)).slice(0, 2)]
        await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${kept.join('\n\n')}\n\n` })
      })
      // A tab of its own (signed in by its link), so the held stream ends with it.
      await page.goto(signInLink)
      await page.getByTestId('signed-in-as').waitFor()
      await page.evaluate(`window.location.hash = ${JSON.stringify('#/logs?by=details.language')}`)
      await page.getByTestId('count-by-partial').waitFor()
      await page.getByTestId('count-by-row').first().waitFor()
      return page
    },
  },
  // Facets shown as they go, held at their second partial answer (as count by's above).
  {
    name: 'call-logs-facets-partial',
    open: async (tab) => {
      const page = await tab.context().newPage()
      let calls = 0
      await page.route('**/trpc/callLogs.facetsProgress**', async (route) => {
        if (!decodeURIComponent(route.request().url()).includes('details.language')) return route.continue()
        if (++calls > 1) return new Promise<void>(() => {})
        const events = (await (await route.fetch()).text()).split('\n\n').filter((e) => e.trim())
        const kept = [...events.filter((e) => /event: connected/.test(e)), ...events.filter((e) => /data: \{"answer"/.test(e)).slice(0, 2)]
        await route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream' }, body: `${kept.join('\n\n')}\n\n` })
      })
      await page.goto(signInLink)
      await page.getByTestId('signed-in-as').waitFor()
      await page.evaluate(`window.location.hash = ${JSON.stringify(`#/logs?query=${encodeURIComponent('details.language:fr')}`)}`)
      await page.getByTestId('facets-partial').waitFor()
      await page.getByTestId('facet-tenant').getByRole('button', { name: /^Filter in tenant / }).first().waitFor()
      return page
    },
  },
  page_('call-logs-count-by-picker', () => '#/logs', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('count-by-key').click()
    await p.getByRole('option', { name: 'details.provider' }).waitFor()
  }),
  // Saved views and links (issue 17 pt 5): the menu, the dialogs, the columns, the recent queries, a bad link.
  page_('call-logs-views-menu', () => '#/logs?query=level%3Aerror&from=now-7d&cols=time,level,message,details.provider', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('saved-views-button').click()
    await p.getByTestId('saved-view-item').first().waitFor()
  }),
  page_('call-logs-save-view-dialog', () => '#/logs?level=error', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('saved-views-button').click()
    await p.getByTestId('save-view').click()
    await p.getByTestId('save-view-name').fill('Errors, last 7 days')
    await p.getByTestId('save-view-submit').click()
    await p.getByText(/already exists/).waitFor()
  }),
  page_('call-logs-manage-views', () => '#/logs', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('saved-views-button').click()
    await p.getByTestId('manage-views-item').click()
    await p.getByRole('button', { name: /^Delete / }).first().click()
    await p.getByTestId('confirm-delete-view').waitFor()
  }),
  page_('call-logs-open-link-dialog', () => '#/logs', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('saved-views-button').click()
    await p.getByTestId('open-link').click()
    await p.getByTestId('open-link-submit').click()
    await p.getByText(/^Paste a Callscope link/).waitFor()
  }),
  page_('call-logs-column-chooser', () => '#/logs?cols=time,level,tenant,message,details.provider', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('column-chooser').click()
    await p.getByTestId('details-column-key').fill('bad key')
    await p.getByText('Letters, digits, _ and - with dots between parts').waitFor()
  }),
  page_('call-logs-copied-link', () => '#/logs?level=error&tz=Europe/Paris', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByTestId('copy-link').click()
    await p.getByTestId('copied-link-text').waitFor()
  }),
  page_('call-logs-query-history', () => '#/logs', async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    const box = p.getByLabel('Query', { exact: true })
    await box.fill('level:error imeout')
    await box.press('Enter')
    await box.press('ArrowDown')
    await p.getByTestId('query-history-item').first().waitFor()
  }),
  page_('call-logs-link-notice', () => '#/logs?level=error,fatal&tz=Mars/Olympus&theme=dark', testId('link-notice')),
  page_('call-logs-empty', () => '#/logs?q=zzqx', (p) => p.getByText('No log line matches this filter.').waitFor()),
  page_('call-logs-query-error', () => `#/logs?query=${encodeURIComponent('level:error (imeout')}`, testId('query-error')),
  page_('call-logs-query-help', () => `#/logs?query=${encodeURIComponent('imeout OR "rate limit"')}`, async (p) => {
    await p.getByTestId('call-log-row').first().waitFor()
    await p.getByRole('button', { name: 'Query help' }).click()
    await p.getByTestId('query-help').waitFor()
  }),
  {
    // Times in the viewer's zone (issue 17 pt 3): its own tab in New York with the choice remembered, a custom range.
    name: 'call-logs-local-time',
    open: async (tab) => {
      const scheme = (await tab.evaluate(`document.documentElement.getAttribute('data-mantine-color-scheme')`)) as 'light' | 'dark'
      const zoned = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce', timezoneId: 'America/New_York' })
      await zoned.addInitScript(`localStorage.setItem('callscope.logs.timeZone', 'local')`)
      const page = await signedIn(zoned, '#/logs?from=2026-11-19T00:00:00.000Z&to=2026-11-20T11:59:59.999Z', (p) => p.getByTestId('call-log-histogram').locator('.recharts-surface').first().waitFor())
      await page.getByRole('columnheader', { name: /^Time \(America\/New_York, UTC-05:00\)$/ }).waitFor()
      page.on('close', () => void zoned.close())
      return page
    },
  },
  page_('providers', () => '#/providers', testId('llm-models')),
  page_('providers-stt', () => '#/providers?tab=stt', async (p) => {
    await p.getByTestId('stt-provider').fill('deepgram')
    await p.getByTestId('stt-model').fill('nova-33')
    await p.keyboard.press('Escape')
    await p.getByTestId('stt-submit').click()
    await p.getByTestId('stt-suggestions').waitFor()
  }),
  {
    name: 'providers-viewer',
    open: (tab) => signedIn(tab.context(), '#/providers', testId('needs-admin'), `${server.url}/console/#token=${ids.viewerToken}`),
  },
  page_('sip-trunks', () => '#/sip-trunks', testId('trunks-table')),
  page_('data', () => '#/data', async (p) => {
    await p.getByTestId('pull-details').waitFor()
    await p.getByTestId('import-history').locator('tbody tr').first().click()
    await p.getByTestId('import-errors').waitFor()
  }),
  page_('data-fetched-dialog', () => '#/data', async (p) => {
    await p.getByTestId('pull-browse').click()
    await p.getByTestId('pulled-documents-table').locator('tbody tr').first().click()
    await p.getByTestId('pulled-document-json').waitFor()
  }),
  page_('settings', () => '#/settings', async (p) => {
    await p.getByTestId('tokens-table').waitFor()
    await p.getByTestId('row-counts').waitFor()
  }),
  page_('settings-new-token-dialog', () => '#/settings', async (p) => {
    await p.getByTestId('token-name').fill(`a11y ${Math.random().toString(36).slice(2, 8)}`)
    await p.getByTestId('create-token').click()
    await p.getByTestId('new-token').waitFor()
  }),
  page_('settings-revoke-dialog', () => '#/settings', async (p) => {
    await p.getByTestId('revoke-token').first().click()
    await p.getByTestId('confirm-revoke').waitFor()
  }),
  page_('not-found', () => '#/no-such-page', testId('not-found')),
  {
    name: 'sign-in-token-refused',
    open: async (tab) => {
      // A tab whose token stopped working: the sign-in screen says why.
      const page = await tab.context().newPage()
      await page.goto(`${server.url}/console/#token=${ids.revokedToken}`)
      await page.getByTestId('sign-in-refused').waitFor()
      return page
    },
  },
  {
    name: 'sign-in',
    open: async (tab) => {
      // A new tab has no token: the console asks for one.
      const page = await tab.context().newPage()
      await page.goto(`${server.url}/console/`)
      await page.getByTestId('token-input').waitFor()
      return page
    },
  },
]

for (const scheme of ['light', 'dark'] as const) {
  describe(`WCAG 2.1 A and AA, ${scheme} colour scheme (axe-core)`, () => {
    let context: BrowserContext
    let tab: Page
    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' })
      tab = await signedIn(context, '#/overview', testId('overview'))
    })
    afterAll(() => context?.close())

    for (const visit of VISITS) {
      it(`${visit.name}: no violations`, async () => {
        const page = await visit.open(tab)
        try {
          await animationsSettled(page)
          expect(await page.evaluate(`document.documentElement.getAttribute('data-mantine-color-scheme')`)).toBe(scheme)
          await page.screenshot({ path: `/tmp/a11y-${visit.name}${scheme === 'dark' ? '-dark' : ''}.png`, fullPage: true })
          expect(await wcagViolations(page)).toEqual([])
        } finally {
          if (page !== tab) await page.close()
        }
      }, 60_000)
    }
  })
}

/** What has the keyboard focus: enough to recognise it. */
interface Focused {
  tag: string
  testId: string | null
  label: string | null
  text: string
  href: string | null
  inDialog: boolean
  /** The browser draws a focus indicator for it (:focus-visible) and its outline is not none. */
  ringed: boolean
}

const focused = (page: Page): Promise<Focused> =>
  page.evaluate(`(() => {
    const el = document.activeElement
    const style = getComputedStyle(el)
    return {
      tag: el.tagName.toLowerCase(),
      testId: el.getAttribute('data-testid'),
      label: el.getAttribute('aria-label'),
      text: (el.textContent ?? '').trim().slice(0, 80),
      href: el.getAttribute('href'),
      inDialog: el.closest('[role=dialog]') !== null,
      ringed: el.matches(':focus-visible') && style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
    }
  })()`)

/** Presses Tab until the focused element is the one wanted; fails if it takes more than `max` presses. */
async function tabTo(page: Page, wanted: (f: Focused) => boolean, what: string, max = 60): Promise<Focused> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    const now = await focused(page)
    if (wanted(now)) return now
  }
  throw new Error(`${what}: not reached in ${max} presses of Tab`)
}

describe('the console from the keyboard alone', () => {
  let context: BrowserContext
  beforeAll(async () => {
    context = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' })
  })
  afterAll(() => context?.close())

  it('searches the call logs, moves through the rows, opens a line and closes it again', async () => {
    const page = await signedIn(context, '#/logs', (p) => p.getByTestId('call-log-row').first().waitFor())
    const search = await tabTo(page, (f) => f.testId === 'query-input', 'the explorer’s query box')
    expect(search.tag).toBe('input')
    const word = 'timed'
    await page.keyboard.type(word)
    await expect.poll(() => page.url()).toContain(`query=${word}`)
    await expect.poll(() => page.getByTestId('call-log-message').first().locator('mark').count()).toBeGreaterThan(0)
    const firstRowIds = () => page.getByTestId('call-log-row').evaluateAll((els) => els.slice(0, 2).map((e) => e.getAttribute('data-id')))

    // On to the rows: one stop for the whole list, with a visible focus ring.
    const row = await tabTo(page, (f) => f.testId === 'call-log-row', 'a call log row')
    expect(row.ringed).toBe(true)
    expect(await page.locator('[data-testid="call-log-row"][tabindex="0"]').count()).toBe(1)
    const [first, second] = await firstRowIds()
    expect(await page.evaluate(`document.activeElement.getAttribute('data-id')`)).toBe(first)
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.evaluate(`document.activeElement.getAttribute('data-id')`)).toBe(second)
    expect(await page.locator(`[data-id="${second}"]`).getAttribute('aria-selected')).toBe('true')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toContain(`line=${second}`)
    await page.getByTestId('details-body').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.url()).not.toContain('line=')
    // Focus stayed on the row the line was opened from; Space opens it as Enter does.
    expect(await page.evaluate(`document.activeElement.getAttribute('data-id')`)).toBe(second)
    await page.keyboard.press(' ')
    await expect.poll(() => page.url()).toContain(`line=${second}`)
    await page.getByTestId('details-body').waitFor()
    await page.keyboard.press('Escape')
    await expect.poll(() => page.url()).not.toContain('line=')
    await page.close()
  })

  it('follows a table row’s link with Enter', async () => {
    const page = await signedIn(context, '#/tenants', testId('tenants-table'))
    const link = await tabTo(page, (f) => f.tag === 'a' && (f.href ?? '').startsWith('#/tenants/'), 'a tenant’s link in the table')
    expect(link.ringed).toBe(true)
    await page.keyboard.press('Enter')
    await expect.poll(() => page.url()).toContain(link.href!)
    expect(await page.getByTestId('tenant-name').innerText()).toBe(link.text)
    await page.close()
  })

  it('opens an import’s refused records from its row’s details button with Enter, and closes them with Space', async () => {
    const page = await signedIn(context, '#/data', (p) => p.getByTestId('import-history').locator('tbody tr').first().waitFor())
    const toggle = await tabTo(page, (f) => (f.label ?? '').startsWith('Details of carrier.ndjson'), 'the import’s details button')
    expect(toggle.ringed).toBe(true)
    const button = page.getByTestId('import-history').getByTestId('row-details-toggle').first()
    expect(await button.getAttribute('aria-expanded')).toBe('false')
    await page.keyboard.press('Enter')
    await page.getByTestId('import-errors').waitFor()
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press(' ')
    await page.getByTestId('import-errors').waitFor({ state: 'detached' })
    expect(await button.getAttribute('aria-expanded')).toBe('false')
    await page.close()
  })

  it('opens and closes the token dialogs with keys only, focus moving into them and back', async () => {
    const page = await signedIn(context, '#/settings', testId('tokens-table'))
    await tabTo(page, (f) => f.testId === 'token-name', 'the new token’s name')
    await page.keyboard.type('keyboard only')
    const create = await tabTo(page, (f) => f.testId === 'create-token', 'Create token')
    expect(create.ringed).toBe(true)
    await page.keyboard.press('Enter')
    await page.getByTestId('new-token').waitFor()
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true)
    await page.keyboard.press('Escape')
    await page.getByTestId('new-token').waitFor({ state: 'detached' })

    // The revoke dialog: opened from the row's button, closed with Escape, focus back on the button.
    const row = page.getByTestId('token-row-keyboard only')
    await row.waitFor()
    const revoke = await tabTo(page, (f) => f.testId === 'revoke-token' && f.inDialog === false, 'a Revoke button')
    expect(revoke.ringed).toBe(true)
    const revokedName = await page.evaluate(`document.activeElement.closest('tr').getAttribute('data-testid')`)
    await page.keyboard.press('Enter')
    await page.getByTestId('confirm-revoke').waitFor()
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true)
    await page.keyboard.press('Escape')
    await page.getByTestId('confirm-revoke').waitFor({ state: 'detached' })
    await expect.poll(async () => (await focused(page)).testId).toBe('revoke-token')
    expect(await page.evaluate(`document.activeElement.closest('tr').getAttribute('data-testid')`)).toBe(revokedName)
    await page.close()
  })
})
