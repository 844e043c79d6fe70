import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { IpcTrpcRequest } from '../../src-shared/ipc'
import { createService, type Service } from '../../src-main/service'
import { createIpcTrpcHandler, trustedSenderCheck } from '../../src-main/server/ipc'
import { createIpcStreamHandler } from '../../src-main/server/ipc-stream'
import { collectErrors, launchBrowser, screenshot } from '../helpers/browser'
import { tempDir } from '../helpers/temp-dir'
import { createListenerControl } from '../../src-main/desktop/listener-control'
import { DEFAULT_LISTENER } from '../../src-shared/schemas/listener'

/**
 * The desktop console without Electron: the built renderer loaded from file://, as the app loads
 * it, with `window.callscope` wired (through a Playwright binding standing in for ipcRenderer) to
 * the real main-process IPC handler over a real store. Only Electron's IPC transport is simulated.
 */
const rendererIndex = join(import.meta.dirname, '../../out/renderer/index.html')
const appUrl = pathToFileURL(rendererIndex).href
let service: Service
let browser: Browser

beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', seedNewDatabase: 'small' })
  browser = await launchBrowser({ desktop: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await service?.close()
})

describe('desktop console over IPC', () => {
  it('shows the overview and tenants from the store, with no token and no network', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    const requests: string[] = []
    page.on('request', (r) => {
      if (!r.url().startsWith('file://')) requests.push(r.url())
    })
    const handler = createIpcTrpcHandler({
      service,
      runtime: { mode: 'desktop', listenerUrl: null },
      isTrustedSender: trustedSenderCheck(() => 1, appUrl),
    })
    await page.exposeFunction('__callscopeIpc', (request: IpcTrpcRequest) =>
      handler({ sender: { id: 1 }, senderFrame: { url: page.url() } }, request),
    )
    // Source text, not a function: what the preload would install, without tsx's helpers.
    await page.addInitScript('window.callscope = { desktop: true, trpc: (request) => window.__callscopeIpc(request) }')
    await page.goto(appUrl)
    await page.getByTestId('overview').waitFor()
    await page.getByRole('link', { name: 'Tenants' }).click()
    await page.getByTestId('tenants-table').waitFor()
    const names = await page.getByTestId('tenants-table').locator('tbody tr td:first-child').allInnerTexts()
    expect(names).toEqual((await service.tenants.list({ role: 'admin', tenantId: null, tokenId: null })).map((t) => t.name))
    expect(await page.getByTestId('signed-in-as').innerText()).toBe('admin')
    expect(await page.getByText('Sign out').count()).toBe(0)
    await screenshot(page, 'desktop-tenants')
    expect(requests).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('turns the HTTP listener on from Settings and exports the call logs to a chosen file', async () => {
    const runtime = { mode: 'desktop' as const, listenerUrl: null }
    const listener = createListenerControl(DEFAULT_LISTENER, { service: () => service, version: 'e2e', uiRoot: null, runtime, save: () => {} })
    const savePath = join(tempDir(), 'desktop-export.csv')
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    const handler = createIpcTrpcHandler({
      service,
      runtime,
      isTrustedSender: trustedSenderCheck(() => 1, appUrl),
      desktop: { listener, chooseSavePath: async () => savePath },
    })
    await page.exposeFunction('__callscopeIpc', (request: IpcTrpcRequest) => handler({ sender: { id: 1 }, senderFrame: { url: page.url() } }, request))
    await page.addInitScript('window.callscope = { desktop: true, trpc: (request) => window.__callscopeIpc(request) }')
    try {
      await page.goto(`${appUrl}#/settings`)
      await page.getByTestId('listener-form').waitFor()
      await page.getByLabel('Port').fill('0')
      await page.getByTestId('listener-enabled').click({ force: true })
      await page.getByTestId('listener-url').waitFor()
      const url = await page.getByTestId('listener-url').innerText()
      expect(url).toBe(listener.status().url)
      expect((await fetch(`${url}/healthz`)).status).toBe(200)
      await screenshot(page, 'desktop-settings')

      await page.evaluate(`window.location.hash = '#/logs?level=error'`)
      await page.locator('[data-testid="call-log-row"]').first().waitFor()
      await page.getByRole('button', { name: 'CSV' }).click()
      await page.getByText(/lines saved to/).waitFor()
      const lines = readFileSync(savePath, 'utf8').trim().split('\r\n')
      expect(lines[0]).toBe('id,tenant_id,log_type,log_level,message,timestamp,agent_id,session_id,call_id,details,user_id,trace_id,request_id')
      expect(await page.getByText(/lines saved to/).innerText()).toContain(savePath)
      expect(errors).toEqual([])
    } finally {
      await listener.stop()
      await page.close()
    }
  })

  it('follows new lines in the explorer over IPC streams, and closes them when the page leaves', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    const options = { service, runtime: { mode: 'desktop' as const, listenerUrl: null }, isTrustedSender: trustedSenderCheck(() => 1, appUrl) }
    const handler = createIpcTrpcHandler(options)
    const streams = createIpcStreamHandler(options)
    const sender = () => ({ sender: { id: 1 }, senderFrame: { url: page.url() } })
    await page.exposeFunction('__callscopeIpc', (request: IpcTrpcRequest) => handler(sender(), request))
    // webContents.send stands in as page.evaluate: each chunk goes to the page's listener.
    await page.exposeFunction('__callscopeStreamOpen', (id: number, request: IpcTrpcRequest) =>
      streams.open(sender(), id, request, (streamId, chunk) => void page.evaluate(`window.__callscopeChunk(${JSON.stringify(streamId)}, ${JSON.stringify(chunk)})`).catch(() => {})),
    )
    await page.exposeFunction('__callscopeStreamClose', (id: number) => streams.close(1, id))
    await page.addInitScript(`
      const listeners = new Map(); let next = 1
      window.__callscopeChunk = (id, chunk) => { listeners.get(id)?.(chunk); if (chunk === null) listeners.delete(id) }
      window.callscope = {
        desktop: true,
        trpc: (request) => window.__callscopeIpc(request),
        trpcStream: (request, onChunk) => {
          const id = next++
          listeners.set(id, onChunk)
          return { opened: window.__callscopeStreamOpen(id, request), close: () => { listeners.delete(id); window.__callscopeStreamClose(id) } }
        },
      }`)
    await page.goto(`${appUrl}#/logs?type=tool&live=1`)
    await expect.poll(() => page.getByTestId('live-state').innerText()).toBe('Following new lines')
    const tenant = (await service.tenants.list({ role: 'admin', tenantId: null, tokenId: null }))[0]!.id
    const line = JSON.stringify({ id: '6f1c1d9e-5a43-4b57-9d7e-0d6f9e2b8a11', tenant_id: tenant, log_type: 'tool', log_level: 'error', message: 'Over IPC: tool book_slot failed', timestamp: new Date().toISOString() })
    const { Readable } = await import('node:stream')
    await service.imports.importCallLogs(Readable.from([line]), { source: 'ipc.ndjson', format: 'ndjson' })
    await page.getByText('Over IPC: tool book_slot failed').waitFor({ timeout: 10_000 })
    expect(streams.count()).toBe(1)
    await screenshot(page, 'desktop-live-tail')
    await page.getByTestId('live-switch').click()
    await expect.poll(() => streams.count()).toBe(0)
    await expect.poll(() => service.storeWatch.waiting()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})
