import { expect } from 'vitest'
import { bearer, type TestServer } from './test-server'

/*
 * The console asked the same question on a SQLite and a PostgreSQL store holding the same rows
 * (test/pg/console-parity-*.test.ts): every answer (status and body) must be the same once what
 * differs between any two runs is put aside. That is: instants of now (within the hour: a pull's
 * fetch, a token's creation; stored demo instants are days older and stay), ids the service draws
 * at random (named with `label`, replaced by the label on each store), and fields named
 * `volatile` (a key check's latency, a store's path and size).
 */

export type Store = 'sqlite' | 'postgres'
export const STORES: Store[] = ['sqlite', 'postgres']

export interface Answer {
  status: number
  body: unknown
}

/** How to ask: a tenant's token (else the admin), the console's source picker, fields to mask. */
export interface Asking {
  token?: Record<Store, string>
  source?: string
  volatile?: readonly string[]
}

const ISO_INSTANT_G = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g

export class StorePair {
  /** Per store: random values (ids, secrets) by the label both stores' values stand for. */
  private readonly labels: Record<Store, Map<string, string>> = { sqlite: new Map(), postgres: new Map() }

  constructor(readonly servers: Record<Store, TestServer>) {}

  /** From now on, `values[store]` reads as `<name>` in that store's answers. */
  label(name: string, values: Record<Store, string>): void {
    for (const store of STORES) this.labels[store].set(values[store], `<${name}>`)
  }

  /** The answer with what differs between any two runs replaced (see the file's comment). */
  normal(store: Store, value: unknown, volatile: readonly string[] = []): unknown {
    let text = JSON.stringify(value)
    for (const [random, name] of this.labels[store]) text = text.replaceAll(random, name)
    text = text.replace(ISO_INSTANT_G, (at) => (Math.abs(Date.parse(at) - Date.now()) < 3_600_000 ? '(now)' : at))
    const masked = new Set(volatile)
    const walk = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(walk)
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, masked.has(k) && x !== null ? '(volatile)' : walk(x)]))
      return v
    }
    return walk(JSON.parse(text))
  }

  /** One request to one store's listener; the body parsed. */
  async request(store: Store, path: string, init: { method?: string; body?: unknown } & Asking = {}): Promise<Answer> {
    const headers: Record<string, string> = init.token ? bearer(init.token[store]) : {}
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    if (init.source !== undefined) headers['x-callscope-source'] = init.source
    const response = await this.servers[store].get(path, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
    const text = await response.text()
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null }
  }

  /** The same request to both stores, SQLite first; the answers must be alike. Returns both, unmasked. */
  async same(path: string, init: { method?: string; body?: unknown } & Asking = {}): Promise<Record<Store, Answer>> {
    const answers = {} as Record<Store, Answer>
    for (const store of STORES) answers[store] = await this.request(store, path, init)
    const [a, b] = STORES.map((store) => ({ path, source: init.source, status: answers[store].status, body: this.normal(store, answers[store].body, init.volatile) }))
    expect(b).toEqual(a)
    return answers
  }

  /** A tRPC query on both stores, alike and answered; returns SQLite's data. */
  async query<T>(procedure: string, input?: unknown, asking: Asking = {}): Promise<T> {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
    const answers = await this.same(`/trpc/${procedure}${query}`, asking)
    expect(answers.sqlite.status, `${procedure} ${JSON.stringify(input)}: ${JSON.stringify(answers.sqlite.body).slice(0, 300)}`).toBe(200)
    return (answers.sqlite.body as { result: { data: T } }).result.data
  }

  /** A tRPC query on both stores that must be refused alike; returns the status. */
  async refused(procedure: string, input?: unknown, asking: Asking = {}): Promise<number> {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`
    const { sqlite } = await this.same(`/trpc/${procedure}${query}`, asking)
    expect(sqlite.status, `${procedure} ${JSON.stringify(input)}`).toBeGreaterThanOrEqual(400)
    return sqlite.status
  }

  /** A tRPC mutation on both stores (SQLite first); the answers alike. Returns both, unmasked. */
  mutate(procedure: string, input: unknown, asking: Asking = {}): Promise<Record<Store, Answer>> {
    return this.same(`/trpc/${procedure}`, { method: 'POST', body: input, ...asking })
  }
}

/** A tRPC answer's data. */
export const dataOf = <T>(answer: Answer): T => (answer.body as { result: { data: T } }).result.data
