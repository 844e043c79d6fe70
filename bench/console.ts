import type { Browser } from 'playwright-core'
import { launchBrowser } from '../test/helpers/browser'
import type { ServeProcess } from '../test/helpers/cli'

export interface ConsoleTimings {
  /** From navigation to the call logs page until its first row is on screen. */
  firstRows: number[]
  /** From a level filter change until the rows shown are the filtered ones. */
  levelFilter: number[]
  /** From a full-text search change (without the typing debounce) until matching rows show. */
  textFilter: number[]
}

/** Words found in warning lines of the large demo data (400 to 7,700 matches each), one per run. */
export const SEARCH_WORDS = ['retrying', 'slow', 'timed', 'delivery', 'requests', 'provider'] as const

/**
 * Times the Call logs page in Debian's Chromium against a running server: how soon the first rows
 * appear, and how soon a filter change shows filtered rows. Timed inside the page (performance.now
 * around the URL change, a MutationObserver for the rows), so Playwright's own latency is not counted.
 */
export async function timeConsole(server: ServeProcess, token: string, runs = 7): Promise<ConsoleTimings> {
  const browser: Browser = await launchBrowser()
  const timings: ConsoleTimings = { firstRows: [], levelFilter: [], textFilter: [] }
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
      await page.addInitScript(`sessionStorage.setItem('callscope.token', ${JSON.stringify(token)})`)
      const started = Date.now()
      await page.goto(`${server.url}/console/#/logs`)
      await page.locator('[data-testid="call-log-row"]').first().waitFor({ timeout: 30_000 })
      timings.firstRows.push(Date.now() - started)

      timings.levelFilter.push(await timeChange(page, '#/logs?level=error', 'error'))
      timings.textFilter.push(await timeChange(page, `#/logs?q=${SEARCH_WORDS[i % SEARCH_WORDS.length]}&level=warning`, null))
      await page.close()
    }
  } finally {
    await browser.close()
  }
  return timings
}

/**
 * Changes the hash and resolves with the ms until the first row shows `level` (or any other row).
 * Passed to the page as source text: tsx would otherwise wrap the inner functions in helpers the
 * page does not have.
 */
function timeChange(page: import('playwright-core').Page, hash: string, level: string | null): Promise<number> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const hash = ${JSON.stringify(hash)}
    const level = ${JSON.stringify(level)}
    const firstRow = () => document.querySelector('[data-testid="call-log-row"]')
    const before = firstRow() && firstRow().getAttribute('data-id')
    const done = () => {
      const row = firstRow()
      // The table's empty state, not the histogram's.
      if (!row) return [...document.querySelectorAll('[data-testid="empty-state"]')].some((e) => !e.closest('[data-testid="call-log-histogram"]'))
      const changed = row.getAttribute('data-id') !== before
      return level ? changed && row.children[1].textContent.trim().toLowerCase() === level : changed
    }
    const t0 = performance.now()
    const observer = new MutationObserver(() => {
      if (done()) {
        observer.disconnect()
        resolve(performance.now() - t0)
      }
    })
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    setTimeout(() => {
      observer.disconnect()
      reject(new Error('no change after 10 s for ' + hash))
    }, 10000)
    location.hash = hash
  })`) as Promise<number>
}
