import type { Browser, Page } from 'playwright-core'
import { collectErrors, launchBrowser } from './browser'
import { type ServeProcess, startServe } from './cli'

export interface ConsoleSession {
  server: ServeProcess
  browser: Browser
  /** The link `serve` printed: opens the console signed in. */
  signInLink: string
  /** The token inside that link, for API calls beside the browser. */
  sessionToken: string
  close(): Promise<void>
}

/** `callscope serve` on a new database (seeded with the small demo set) and Debian's Chromium; `env` for the serve process. */
export async function startConsoleSession(dbPath: string, env: NodeJS.ProcessEnv = {}): Promise<ConsoleSession> {
  const server = await startServe(['--db', dbPath], env)
  const match = /sign-in link for this run\): (\S+#token=(\S+))/.exec(server.banner)
  if (!match) throw new Error(`no sign-in link in: ${server.banner}`)
  const browser = await launchBrowser()
  return {
    server,
    browser,
    signInLink: match[1]!,
    sessionToken: match[2]!,
    async close() {
      await browser.close()
      await server.stop()
    },
  }
}

/**
 * A new tab signed in with `signInLink`, moved to `hash`, once the element of test id `ready`
 * shows; with the page's console errors, collected from the start.
 */
export async function openConsolePage(browser: Browser, signInLink: string, hash: string, ready: string, height = 1000): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height } })
  const errors = collectErrors(page)
  await page.goto(signInLink)
  await page.getByTestId('signed-in-as').waitFor()
  await page.evaluate(`window.location.hash = ${JSON.stringify(hash)}`)
  await page.getByTestId(ready).first().waitFor()
  return { page, errors }
}
