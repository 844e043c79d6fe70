import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { wcagViolations } from '../helpers/axe'
import { screenshot } from '../helpers/browser'
import type { ServeProcess } from '../helpers/cli'
import { openConsolePage, startConsoleSession } from '../helpers/console-session'
import { tempDir } from '../helpers/temp-dir'

/*
 * A call's page (issue 16 pt 2) in Chromium on the demo store: opened from the Calls page, its
 * header and turn latencies checked against SQL on the same file, a turn chosen from either side,
 * a span's lines opened, the links followed; a call known only from Hebrew log lines; axe-core.
 */

let server: ServeProcess
let browser: Browser
let signInLink: string
let dbPath: string

beforeAll(async () => {
  dbPath = `${tempDir()}/e2e-call-detail.sqlite`
  ;({ server, browser, signInLink } = await startConsoleSession(dbPath))
}, 90_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

function withDb<T>(use: (db: Database.Database) => T, readonly = true): T {
  const db = new Database(dbPath, { readonly })
  try {
    return use(db)
  } finally {
    db.close()
  }
}
const row = <T>(sql: string, ...params: unknown[]) => withDb((db) => db.prepare(sql).get(...params) as T)
const column = <T>(sql: string, ...params: unknown[]) => withDb((db) => db.prepare(sql).pluck().all(...params) as T[])

/** Turn latencies in SQL, apart from the service: STT line with audio_ms → first TTS line before the next one. */
const turnLatencies = (callId: string) =>
  column<number | null>(
    `with s as (select seq, timestamp, lead(timestamp) over (order by timestamp, seq) as next_ts
                from call_logs where call_id = ? and log_type = 'stt' and json_extract(details, '$.audio_ms') is not null)
     select cast(round((julianday((select min(t.timestamp) from call_logs t where t.call_id = ? and t.log_type = 'tts'
              and t.timestamp >= s.timestamp and (s.next_ts is null or t.timestamp < s.next_ts))) - julianday(s.timestamp)) * 86400000) as integer)
     from s order by s.timestamp, s.seq`,
    callId,
    callId,
  )

interface Picked {
  id: string
  conversation_id: string
  from_number: string
  status: string
  end_reason: string
  duration_ms: number
  agent: string
  language: string
}

/** An Arabic call that went through a transfer and has two turns or more (the demo has some). */
const pickCall = () =>
  row<Picked>(
    `select c.id, c.conversation_id, c.from_number, c.status, c.end_reason, c.duration_ms, a.name as agent, v.language
     from calls c join conversations v on v.id = c.conversation_id join agents a on a.id = c.agent_id
     where v.language = 'ar' and c.status = 'completed' and exists (select 1 from transfers t where t.conversation_id = v.id)
       and (select count(*) from call_logs l where l.call_id = c.id and l.log_type = 'stt' and json_extract(l.details, '$.audio_ms') is not null) >= 1
     order by (select count(*) from call_logs l where l.call_id = c.id and l.log_type = 'stt') desc, c.started_at desc limit 1`,
  )

const attr = (page: Page, selector: string, name: string) => page.locator(selector).evaluateAll((els, n) => els.map((e) => e.getAttribute(n as string)), name)

describe('call page in Chromium', () => {
  it('opens from the Calls page with its header and turn latencies as the store has them; turns chosen from either side', async () => {
    const call = pickCall()
    expect(call, 'the demo set has an Arabic call with a transfer').toBeDefined()
    const { page, errors } = await openConsolePage(browser, signInLink, `#/calls?period=all&phone=${encodeURIComponent(call.from_number)}`, 'calls-table', 1400)
    await page.locator(`tr[data-call-id="${call.id}"] [data-testid="call-link"]`).click()
    await page.waitForURL(new RegExp(`#/calls/${call.id}$`))
    await page.getByTestId('call-waterfall').waitFor()

    expect(await page.getByTestId('call-id').innerText()).toBe(call.id)
    expect(await page.getByTestId('call-status').textContent()).toBe(call.status)
    expect(await page.getByTestId('call-end-reason').innerText()).toBe(call.end_reason)
    expect(await page.getByTestId('call-duration').innerText()).toContain(`(${call.duration_ms.toLocaleString('en-US')} ms)`)
    expect(await page.getByTestId('call-numbers').innerText()).toContain(call.from_number)
    expect(await page.getByTestId('call-agent').innerText()).toBe(call.agent)
    expect(await page.getByTestId('transfer-hop').count()).toBe(column('select id from transfers where conversation_id = ?', call.conversation_id).length)

    const expected = turnLatencies(call.id)
    expect(await attr(page, '[data-testid="turn-latency"]', 'data-ms')).toEqual(expected.map((v) => (v === null ? '' : String(v))))
    const known = expected.filter((v): v is number => v !== null).sort((a, b) => a - b)
    const median = known.length % 2 ? known[(known.length - 1) / 2]! : Math.round((known[known.length / 2 - 1]! + known[known.length / 2]!) / 2)
    expect(await page.getByTestId('turn-median').innerText()).toBe(`${median.toLocaleString('en-US')} ms`)
    expect(await page.getByTestId('turn-count').innerText()).toBe(`${known.length} of ${expected.length}`)
    // Arabic reads right to left in the transcript, each message in its own direction.
    const userText = page.locator('[data-testid="call-message"][data-role="user"] [data-testid="call-message-text"]').first()
    expect(await userText.getAttribute('dir')).toBe('rtl')
    expect(await userText.innerText()).toBe(column<string>("select content from messages where conversation_id = ? and role = 'user' order by position limit 1", call.conversation_id)[0])
    await screenshot(page, 'call-detail')
    expect(await wcagViolations(page)).toEqual([])

    // Turn 1 from the latency table: its spans and messages light up.
    await page.locator('[data-testid="turn-row"][data-turn="1"] [data-testid="turn-select"]').click()
    await expect.poll(() => page.locator('[data-testid="span-row"][data-in-turn]').count()).toBeGreaterThan(0)
    expect(page.url()).toMatch(/turn=1/)
    const spanTurns = await attr(page, '[data-testid="span-row"][data-in-turn]', 'data-turn')
    expect(spanTurns.length).toBeGreaterThan(0)
    expect(new Set(spanTurns)).toEqual(new Set(['1']))
    expect(await page.locator('[data-testid="span-row"][data-turn="1"]').count()).toBe(spanTurns.length)
    expect(await attr(page, '[data-testid="call-message"][data-selected]', 'data-turn')).toEqual(await attr(page, '[data-testid="call-message"][data-turn="1"]', 'data-turn'))
    await screenshot(page, 'call-detail-turn')

    // Back from the timeline: an LLM span of the turn opens its lines and keeps its turn.
    await page.locator('[data-testid="span-row"][data-kind="llm"][data-turn="1"] [data-testid="span-toggle"]').first().click()
    await page.getByTestId('span-lines').waitFor()
    expect(await page.getByTestId('span-line').count()).toBe(2)
    expect(await page.getByTestId('span-line-details').last().innerText()).toContain('"latency_ms"')
    expect(page.url()).toMatch(/turn=1/)
    // And from the transcript: a message's turn button chooses its turn (turn 1 again, off).
    await page.locator('[data-testid="call-message"][data-turn="1"] [data-testid="message-turn"]').first().click()
    await expect.poll(() => page.url()).not.toMatch(/turn=/)
    await expect.poll(() => page.locator('[data-testid="span-row"][data-in-turn]').count()).toBe(0)
    expect(await page.locator('[data-testid="call-message"][data-selected]').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })

  it('follows its links to the session, the trace and the explorer filtered on the call', async () => {
    const call = pickCall()
    const trace = column<string>('select distinct trace_id from call_logs where call_id = ? and trace_id is not null', call.id)[0]!
    const { page, errors } = await openConsolePage(browser, signInLink, `#/calls/${call.id}`, 'call-waterfall')
    await page.getByTestId('call-session-link').click()
    await page.waitForURL(new RegExp(`#/sessions/${call.conversation_id}$`))
    await page.getByTestId('transcript').waitFor()
    await page.goBack()
    await page.getByTestId('call-trace-link').click()
    await page.waitForURL(new RegExp(`#/logs\\?trace=${trace}$`))
    await page.getByTestId('call-log-row').first().waitFor()
    expect(new Set(await attr(page, '[data-testid="call-log-row"]', 'data-id'))).toEqual(new Set(column('select id from call_logs where trace_id = ?', trace)))
    await page.goBack()
    await page.getByTestId('call-explorer-link').click()
    await page.waitForURL(new RegExp(`#/logs\\?call=${call.id}$`))
    await page.getByTestId('call-log-row').first().waitFor()
    expect(new Set(await attr(page, '[data-testid="call-log-row"]', 'data-id'))).toEqual(new Set(column('select id from call_logs where call_id = ?', call.id)))
    expect(errors).toEqual([])
    await page.close()
  })

  it('builds the page of a call known only from Hebrew log lines, saying what is missing', async () => {
    const tenant = column<string>('select id from tenants order by id')[0]!
    withDb((db) => {
      const insert = db.prepare("insert into call_logs (id, tenant_id, log_type, log_level, message, timestamp, call_id, details) values (?, ?, ?, ?, ?, ?, 'pulled-he-1', ?)")
      insert.run('he-1', tenant, 'call', 'info', 'Inbound call from +972501234567', '2026-11-19T08:00:00.000Z', JSON.stringify({ direction: 'inbound', from: '+972501234567', to: '+15550100' }))
      insert.run('he-2', tenant, 'stt', 'info', 'STT final', '2026-11-19T08:00:03.000Z', JSON.stringify({ transcript: 'שלום, אני רוצה לבטל את ההזמנה שלי', is_final: true }))
      insert.run('he-3', tenant, 'tts', 'debug', 'TTS', '2026-11-19T08:00:03.640Z', JSON.stringify({ latency_ms: 210, text: 'בסדר, רק רגע' }))
      insert.run('he-4', tenant, 'tool', 'error', 'Tool cancel_order failed', '2026-11-19T08:00:05.000Z', JSON.stringify({ tool: 'cancel_order', error: { message: 'ההזמנה כבר נשלחה' } }))
      insert.run('he-5', tenant, 'call', 'info', 'Call ended', '2026-11-19T08:00:09.000Z', JSON.stringify({ end_reason: 'caller_hangup' }))
    }, false)
    const { page, errors } = await openConsolePage(browser, signInLink, '#/calls/pulled-he-1', 'call-waterfall')
    expect(await page.getByTestId('call-missing').innerText()).toContain('No call record in this store')
    expect(await page.getByTestId('call-status').innerText()).toBe('unknown (no call record)')
    expect(await attr(page, '[data-testid="turn-latency"]', 'data-ms')).toEqual(['640'])
    expect(await page.locator('[data-testid="span-row"][data-kind="tool"] [data-testid="span-error"]').innerText()).toBe('ERROR')
    // From the keyboard: Tab reaches the spans (after the links, the turns and the timeline's turn row), Enter opens one.
    await page.getByTestId('call-explorer-link').focus()
    let presses = 0
    while ((await page.evaluate(`document.activeElement.closest('[data-testid="span-row"]')?.getAttribute('data-kind') ?? ''`)) !== 'tool') {
      await page.keyboard.press('Tab')
      expect(++presses, 'Tab presses to the tool span').toBeLessThan(30)
    }
    expect(await page.evaluate(`document.activeElement.matches(':focus-visible') && document.activeElement.tagName`)).toBe('BUTTON')
    await page.keyboard.press('Enter')
    await page.getByTestId('span-lines').waitFor()
    await screenshot(page, 'call-detail-lines-only')
    // The Hebrew inside the JSON details is isolated in its own direction.
    const hebrew = page.getByTestId('span-line-details').locator('bdi', { hasText: 'ההזמנה כבר נשלחה' })
    expect(await hebrew.count()).toBe(1)
    expect(await hebrew.evaluate((e) => (globalThis as unknown as { getComputedStyle(el: unknown): { direction: string } }).getComputedStyle(e).direction)).toBe('rtl')
    await screenshot(page, 'call-detail-lines-only')
    expect(await wcagViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })

  it('says so for an id no call or line has', async () => {
    const { page } = await openConsolePage(browser, signInLink, '#/calls/no-such-call', 'call-not-found')
    expect(await page.getByTestId('call-not-found').innerText()).toContain('no-such-call')
    await page.close()
  })
})
