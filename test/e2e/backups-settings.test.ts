import { copyFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import Database from 'better-sqlite3'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { BackupSchedule } from '../../src-shared/schemas/backup-schedule'
import { DEFAULT_LISTENER } from '../../src-shared/schemas/listener'
import type { IpcTrpcRequest } from '../../src-shared/ipc'
import { createBackupControl } from '../../src-main/desktop/backup-control'
import { createIpcTrpcHandler, trustedSenderCheck } from '../../src-main/server/ipc'
import { createService, type Service } from '../../src-main/service'
import { wcagViolations } from '../helpers/axe'
import { collectErrors, launchBrowser, screenshot } from '../helpers/browser'
import { tempDir } from '../helpers/temp-dir'

/**
 * Settings → Backups in the desktop console (built renderer from file://, the real main-process IPC
 * handler and backup control) over a real store: choosing a period backs it up at once into the
 * folder, the form says where and how big, and the backup opens with the store's rows.
 */
const appUrl = pathToFileURL(join(import.meta.dirname, '../../out/renderer/index.html')).href
const dir = tempDir('callscope-e2e-backups-')
let browser: Browser
let service: Service

beforeAll(async () => {
  copyFileSync(inject('demoTemplate'), join(dir, 'desk.sqlite'))
  service = await createService({ dbPath: join(dir, 'desk.sqlite'), seedNewDatabase: false })
  browser = await launchBrowser({ desktop: true })
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await service?.close()
})

describe('Settings → Backups (desktop)', () => {
  it('turns scheduled backups on, backs up at once into the folder beside the store, and shows the last one', async () => {
    const saved: BackupSchedule[] = []
    const backups = createBackupControl({
      initial: { every: null, keep: 7, dir: null },
      save: (schedule) => saved.push(schedule),
      store: () => ({ path: service.database.path, backup: (file) => service.database.backup(file) }),
      warn: () => {},
    })
    const listener = { status: () => ({ config: DEFAULT_LISTENER, url: null, error: null }), configure: async () => ({ config: DEFAULT_LISTENER, url: null, error: null }), stop: async () => {} }
    const handler = createIpcTrpcHandler({
      service,
      runtime: { mode: 'desktop', listenerUrl: null },
      isTrustedSender: trustedSenderCheck(() => 1, appUrl),
      desktop: { listener, chooseSavePath: async () => null, backups },
    })
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    const errors = collectErrors(page)
    await page.exposeFunction('__callscopeIpc', (request: IpcTrpcRequest) => handler({ sender: { id: 1 }, senderFrame: { url: page.url() } }, request))
    await page.addInitScript('window.callscope = { desktop: true, trpc: (request) => window.__callscopeIpc(request) }')
    try {
      await page.goto(`${appUrl}#/settings`)
      await page.getByTestId('backups-form').waitFor()
      expect(await page.getByTestId('backups-last').innerText()).toMatch(/^No backup in that folder yet\. The sealing key/)

      await page.getByTestId('backups-form').getByLabel('Back up').click()
      await page.getByRole('option', { name: 'Every day' }).click()
      await page.getByTestId('backups-form').getByLabel('Keep').fill('3')
      await page.getByTestId('backups-form').getByRole('button', { name: 'Apply' }).click()
      await expect.poll(() => saved).toEqual([{ every: '24h', keep: 3, dir: null }])

      // The first backup is due at once; the form shows it once it is there (read again on reload).
      const folder = join(dir, 'backups')
      await expect.poll(() => readdirSync(folder, { withFileTypes: true }).filter((f) => /^desk-\d{8}T\d{6}Z\.sqlite$/.test(f.name)).length, { timeout: 30_000 }).toBe(1)
      await page.reload()
      await expect.poll(() => page.getByTestId('backups-last').innerText()).toMatch(new RegExp(`^Last backup: ${folder}/desk-\\d{8}T\\d{6}Z\\.sqlite \\([\\d.]+ MiB, .+ UTC\\)`))
      await screenshot(page, 'backups-settings')
      expect(await wcagViolations(page)).toEqual([])
      expect(errors).toEqual([])

      const [name] = readdirSync(folder)
      const copy = new Database(join(folder, name!), { readonly: true })
      const original = new Database(service.database.path, { readonly: true })
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok')
        expect(copy.prepare('select count(*) from call_logs').pluck().get()).toBe(original.prepare('select count(*) from call_logs').pluck().get())
      } finally {
        copy.close()
        original.close()
      }
    } finally {
      backups.stop()
      await page.close()
    }
  }, 90_000)
})
