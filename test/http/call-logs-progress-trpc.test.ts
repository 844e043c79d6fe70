import { createTRPCClient, httpLink, httpSubscriptionLink, splitLink } from '@trpc/client'
import { EventSource } from 'eventsource'
import { copyFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import type { AppRouter } from '../../src-main/server/app-router'
import { startServe } from '../helpers/cli'
import { tempDir } from '../helpers/temp-dir'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

/*
 * The console's counts shown as they go (issue 17 pt 6), facets and count by, over the real
 * listener with the renderer's link pieces (tRPC's subscription link, the eventsource package): a
 * filter whose lines are read comes in answers, newest slices first, the last one the same as the
 * one-shot query's; a tenant token counts its own tenant's lines; no token, no count.
 */

let server: TestServer
beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

function client(token: string | null = ADMIN_TOKEN) {
  const headers = token ? bearer(token) : {}
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({ url: `${server.url}/trpc`, EventSource, eventSourceOptions: { fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, ...headers } }) } }),
        false: httpLink({ url: `${server.url}/trpc`, headers }),
      }),
    ],
  })
}

type Step<A> = { answer: A; scanned: number; complete: boolean }

/** Every answer of a subscription until its complete one (or its error). */
function collect<A>(subscribe: (handlers: { onData: (step: Step<A>) => void; onError: (error: unknown) => void }) => { unsubscribe(): void }): Promise<Step<A>[]> {
  return new Promise((resolve, reject) => {
    const steps: Step<A>[] = []
    const subscription = subscribe({
      onData: (step) => {
        steps.push(step)
        if (step.complete) {
          subscription.unsubscribe()
          resolve(steps)
        }
      },
      onError: (error) => {
        subscription.unsubscribe()
        reject(error)
      },
    })
  })
}

const QUERY = 'details.language:fr'

/** An SSE body read until its complete answer (the stream stays open after it), then closed. */
async function readUntilComplete(response: Response): Promise<string> {
  const reader = response.body!.getReader()
  let text = ''
  while (!text.includes('"complete":true')) {
    const { value, done } = await reader.read()
    if (done) break
    text += new TextDecoder().decode(value)
  }
  await reader.cancel()
  return text
}

describe('counts shown as they go, over HTTP', () => {
  it('facets: answers over the newest slices, then the one-shot facets', async () => {
    const api = client()
    const filter = { query: QUERY }
    const steps = await collect<Awaited<ReturnType<typeof api.callLogs.facets.query>>>((h) => api.callLogs.facetsProgress.subscribe({ filter }, h))
    expect(steps.length).toBe(6)
    expect(steps.map((s) => s.complete)).toEqual([false, false, false, false, false, true])
    const shares = steps.map((s) => s.scanned)
    expect(shares).toEqual([...shares].sort((a, b) => a - b))
    const total = (s: Step<{ levels: Array<{ count: number }> }>) => s.answer.levels.reduce((n, l) => n + l.count, 0)
    expect(total(steps[0]!)).toBeGreaterThan(0)
    expect(total(steps[0]!)).toBeLessThan(total(steps.at(-1)!))
    expect(steps.at(-1)!.answer).toEqual(await api.callLogs.facets.query({ filter }))
    // SQLite's own count of the lines the filter selects.
    const lines = server.sqlite.prepare("select count(*) from call_logs where json_extract(details, '$.language') = 'fr' collate nocase").pluck().get() as number
    expect(total(steps.at(-1)!)).toBe(lines)
  })

  it('facets of a bare time range: one answer', async () => {
    const steps = await collect((h) => client().callLogs.facetsProgress.subscribe({ filter: {} }, h))
    expect(steps.map((s) => [s.scanned, s.complete])).toEqual([[1, true]])
  })

  it('count by: answers over the newest slices, then the one-shot count', async () => {
    const api = client()
    const input = { filter: { query: QUERY }, by: 'details.model', top: 3 }
    const steps = await collect<Awaited<ReturnType<typeof api.callLogs.countBy.query>>>((h) => api.callLogs.countByProgress.subscribe(input, h))
    expect(steps.length).toBeGreaterThan(1)
    expect(steps.at(-1)!.answer).toEqual(await api.callLogs.countBy.query(input))
    const totals = steps.map((s) => s.answer.total)
    expect(totals).toEqual([...totals].sort((a, b) => a - b))
  })

  it('a tenant token: its own tenant only, in every answer', async () => {
    const tenant = server.sqlite.prepare('select tenant_id from call_logs group by tenant_id order by count(*) desc limit 1').pluck().get() as string
    const steps = await collect<{ tenants: Array<{ value: string }> }>((h) => client().callLogs.facetsProgress.subscribe({ filter: { query: QUERY } }, h))
    expect(new Set(steps.at(-1)!.answer.tenants.map((t) => t.value)).size).toBeGreaterThan(1)
    const token = await tokenFor(server, 'tenant', tenant)
    const own = await collect<{ tenants: Array<{ value: string }> }>((h) => client(token).callLogs.facetsProgress.subscribe({ filter: { query: QUERY } }, h))
    expect(own.length).toBeGreaterThan(1)
    for (const step of own) expect(step.answer.tenants.map((t) => t.value)).toEqual([tenant])
  })

  it('a client gone mid-count: the count stops, `serve` goes on answering', async () => {
    // The real process: an unhandled rejection there ends it (call-logs.slices.ts, readInWaves).
    const db = `${tempDir()}/progress.sqlite`
    copyFileSync(inject('demoTemplate'), db)
    const serve = await startServe(['--db', db])
    try {
      const token = /#token=(\S+)/.exec(serve.banner)![1]!
      for (const [path, input] of [
        ['callLogs.facetsProgress', { filter: { query: QUERY } }],
        ['callLogs.countByProgress', { filter: { query: QUERY }, by: 'details.language', top: 5 }],
      ] as const) {
        // The stream read up to its first answer, then the connection dropped (a tab closed).
        const controller = new AbortController()
        const response = await fetch(`${serve.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: bearer(token), signal: controller.signal })
        const reader = response.body!.getReader()
        let text = ''
        while (!text.includes('data: {"answer"')) text += new TextDecoder().decode((await reader.read()).value)
        controller.abort()
        // A whole count after it, over the same readers: the dropped one has run on past its next wave by then.
        const whole = await fetch(`${serve.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: bearer(token) })
        const events = await readUntilComplete(whole)
        expect(events).toMatch(/"complete":true/)
      }
      const after = await fetch(`${serve.url}/trpc/callLogs.facets?input=${encodeURIComponent(JSON.stringify({ filter: {} }))}`, { headers: bearer(token) })
      expect(after.status).toBe(200)
      expect(serve.child.exitCode).toBeNull()
    } finally {
      await serve.stop()
    }
  }, 120_000)

  it('no token: refused, nothing counted', async () => {
    const error = await collect((h) => client(null).callLogs.facetsProgress.subscribe({ filter: { query: QUERY } }, h)).catch((e: unknown) => e)
    expect(error).toMatchObject({ data: { code: 'UNAUTHORIZED' } })
  })

  it('a bad query: its syntax error with its column, no answer', async () => {
    const error = await collect((h) => client().callLogs.facetsProgress.subscribe({ filter: { query: 'level:(' } }, h)).catch((e: unknown) => e)
    expect(error).toMatchObject({ data: { code: 'BAD_REQUEST' } })
    expect((error as Error).message).toContain('level: needs a value (at column 7)')
  })
})
