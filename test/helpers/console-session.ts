import type { Browser } from 'playwright-core'
import { launchBrowser } from './browser'
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

/** `callscope serve` on a new database (seeded with the small demo set) and Debian's Chromium. */
export async function startConsoleSession(dbPath: string): Promise<ConsoleSession> {
  const server = await startServe(['--db', dbPath])
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
