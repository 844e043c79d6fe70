import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IpcTrpcRequest } from '../../src-shared/ipc'
import { createTeamServerControl } from '../../src-main/desktop/team-server'
import { createMemorySecretBox } from '../../src-main/modules/providers/secret-box'
import { createIpcTrpcHandler, trustedSenderCheck } from '../../src-main/server/ipc'
import { createService, type Service } from '../../src-main/service'
import { DEFAULT_LISTENER } from '../../src-shared/schemas/listener'
import { wcagViolations } from '../helpers/axe'
import { collectErrors, launchBrowser, screenshot } from '../helpers/browser'
import { selfSignedCertificate } from '../helpers/self-signed'
import { startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

/**
 * The desktop console (built renderer from file://, the real main-process IPC handler) pointed at a
 * team server: an HTTPS Callscope with the demo data, while the desktop's own store is empty.
 */
const appUrl = pathToFileURL(join(import.meta.dirname, '../../out/renderer/index.html')).href
let browser: Browser
let team: TestServer
let local: Service
let cert: string

beforeAll(async () => {
  const tls = selfSignedCertificate()
  cert = tls.cert
  team = await startTestServer({ tls: { cert: tls.cert, key: tls.key } })
  local = await createService({ dbPath: ':memory:', seedNewDatabase: false })
  browser = await launchBrowser({ desktop: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await team?.close()
  await local?.close()
})

describe('desktop console on a team server', () => {
  it('connects from Settings, shows the server\'s data under its badge, and goes back to the local store', async () => {
    const control = createTeamServerControl({ saved: null, secretBox: createMemorySecretBox(), save: () => {} })
    const listener = { status: () => ({ config: DEFAULT_LISTENER, url: null, error: null }), configure: async () => ({ config: DEFAULT_LISTENER, url: null, error: null }), stop: async () => {} }
    const handler = createIpcTrpcHandler({
      service: local,
      runtime: { mode: 'desktop', listenerUrl: null },
      isTrustedSender: trustedSenderCheck(() => 1, appUrl),
      desktop: { listener, chooseSavePath: async () => null, teamServer: control },
      team: () => control.target(),
    })
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    await page.exposeFunction('__callscopeIpc', (request: IpcTrpcRequest) => handler({ sender: { id: 1 }, senderFrame: { url: page.url() } }, request))
    await page.addInitScript('window.callscope = { desktop: true, trpc: (request) => window.__callscopeIpc(request) }')
    try {
      await page.goto(`${appUrl}#/settings`)
      await page.getByTestId('team-server-form').waitFor()
      expect(await page.getByTestId('team-server-badge').count()).toBe(0)

      // A wrong token first: the form says what to do, nothing changes.
      await page.getByTestId('team-server-address').fill(team.url)
      await page.getByTestId('team-server-token').fill('wrong-token')
      await page.getByTestId('team-server-certificate').fill(cert)
      await page.getByTestId('team-server-connect').click()
      await expect.poll(() => page.getByTestId('team-server-error').innerText()).toMatch(/The team server refused the token/)
      await screenshot(page, 'team-server-refused')
      expect(await wcagViolations(page)).toEqual([])

      await page.getByTestId('team-server-token').fill(await tokenFor(team, 'viewer'))
      await page.getByTestId('team-server-connect').click()
      await page.getByTestId('team-server-connected').waitFor()
      expect(await page.getByTestId('team-server-url').innerText()).toBe(team.url)
      expect(await page.getByTestId('team-server-badge').innerText()).toBe(`Team server · ${new URL(team.url).host}`)
      expect(await page.getByTestId('signed-in-as').innerText()).toBe('viewer')
      await screenshot(page, 'team-server-connected')
      expect(await wcagViolations(page)).toEqual([])

      await page.getByRole('link', { name: 'Tenants' }).click()
      await page.getByTestId('tenants-table').waitFor()
      const names = await page.getByTestId('tenants-table').locator('tbody tr td:first-child').allInnerTexts()
      expect(names).toEqual((await team.service.tenants.list({ role: 'admin', tenantId: null, tokenId: null })).map((t) => t.name))
      expect(names.length).toBeGreaterThan(0)
      await screenshot(page, 'team-server-tenants')

      await page.getByRole('link', { name: 'Settings' }).click()
      await page.getByTestId('team-server-disconnect').click()
      await page.getByTestId('team-server-form').waitFor()
      expect(await page.getByTestId('team-server-badge').count()).toBe(0)
      expect(await page.getByTestId('signed-in-as').innerText()).toBe('admin')
      await page.getByRole('link', { name: 'Tenants' }).click()
      await page.getByText('No tenants in this store yet').waitFor()
      await screenshot(page, 'team-server-back-to-local')
      expect(errors).toEqual([])
    } finally {
      await page.close()
    }
  }, 120_000)
})
