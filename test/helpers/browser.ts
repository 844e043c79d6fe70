import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'

export const SCREENSHOT_DIR = join(import.meta.dirname, '../../test-results')

/**
 * Debian's Chromium, headless, with no network chatter: the only browser these machines have.
 * `desktop`: the built renderer from file://, which Electron lets load its module scripts.
 */
export async function launchBrowser(options: { desktop?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync',
      ...(options.desktop ? ['--allow-file-access-from-files'] : []),
    ],
  })
}

/** Console errors and uncaught exceptions of a page, to assert there are none. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  page.on('pageerror', (error) => errors.push(String(error)))
  return errors
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true })
}
