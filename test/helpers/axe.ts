import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'

// Evaluated rather than added as a <script>: the console's CSP (script-src 'self') refuses inline scripts.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core'), 'utf8')
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** axe-core's WCAG 2.x A/AA violations on the page as it stands, one line per element, saying what to fix. */
export async function wcagViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(`typeof window.axe !== 'undefined'`))) await page.evaluate(AXE_SOURCE)
  const options = { runOnly: { type: 'tag', values: WCAG_TAGS } }
  const violations = (await page.evaluate(
    `axe.run(document, ${JSON.stringify(options)}).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, summary: n.failureSummary })) })))`,
  )) as Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; summary?: string }> }>
  return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${v.help}\n    at ${n.target.flat(2).join(' >>> ')}\n    ${(n.summary ?? '').replace(/\n/g, '\n    ')}`))
}
