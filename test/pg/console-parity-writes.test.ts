import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Answer, dataOf, StorePair, STORES, type Store } from '../helpers/store-pair'
import { bearer, startTestServer } from '../helpers/test-server'

/*
 * Parity of the console's writes (issue 20 pt 1): API tokens (create, list, revoke, whoami) and
 * the explorer's saved views (create, rename, update, delete), done alike over tRPC on a SQLite
 * and a PostgreSQL store holding the same demo rows. Ids and secrets are random: each is named
 * by a label (test/helpers/store-pair.ts), so the answers are compared field by field, and a
 * secret must appear in create's answer only.
 */

let pair: StorePair
let tenantIds: string[] = []
let agentId = ''
/** Every secret either store handed out, to look for in later answers. */
const secrets: string[] = []
let tenantToken: Record<Store, string>

beforeAll(async () => {
  const [sqlite, postgres] = await Promise.all([startTestServer(), startTestServer({ store: 'postgres' })])
  pair = new StorePair({ sqlite, postgres })
  tenantIds = (await sqlite.service.db.selectFrom('tenants').select('id').orderBy('id').execute()).map((r) => r.id)
  agentId = (await sqlite.service.db.selectFrom('agents').select('id').orderBy('id').executeTakeFirstOrThrow()).id
})

afterAll(async () => {
  await Promise.all([pair?.servers.sqlite.close(), pair?.servers.postgres.close()])
})

/** Until the clock has moved on a millisecond: lists ordered by an instant then a random id stay in one order. */
async function nextMillisecond(): Promise<void> {
  const start = Date.now()
  while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve))
}

interface Created {
  token: string
  record: { id: string; token_prefix: string; status: string }
}

/** tokens.create on both; its id, secret and prefix labelled `name`. */
async function createToken(name: string, input: Record<string, unknown>, volatile: readonly string[] = []): Promise<Record<Store, Created>> {
  const created = {} as Record<Store, Created>
  for (const store of STORES) {
    const answer = await pair.request(store, '/trpc/tokens.create', { method: 'POST', body: input })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    created[store] = dataOf<Created>(answer)
    secrets.push(created[store].token)
    await nextMillisecond()
  }
  // The secret first: its prefix is part of it.
  pair.label(`${name}-secret`, { sqlite: created.sqlite.token, postgres: created.postgres.token })
  pair.label(`${name}-prefix`, { sqlite: created.sqlite.record.token_prefix, postgres: created.postgres.record.token_prefix })
  pair.label(`${name}-id`, { sqlite: created.sqlite.record.id, postgres: created.postgres.record.id })
  expect(pair.normal('postgres', created.postgres, volatile)).toEqual(pair.normal('sqlite', created.sqlite, volatile))
  for (const store of STORES) expect(created[store].token.startsWith(created[store].record.token_prefix)).toBe(true)
  return created
}

/** No answer after create's holds a secret, or a stored hash's hex. */
function noSecretIn(body: unknown): void {
  const text = JSON.stringify(body)
  for (const secret of secrets) expect(text).not.toContain(secret)
  expect(text).not.toMatch(/token_hash|[0-9a-f]{64}/)
}

describe('tokens on SQLite and PostgreSQL', { timeout: 120_000 }, () => {
  it('created, listed, used, revoked alike; the secret shown once', async () => {
    expect(await pair.query('tokens.list')).toEqual([])
    const viewer = await createToken('viewer', { name: 'Support laptop', role: 'viewer', expires: '2027-01-31' })
    const tenant = await createToken('tenant', { name: 'Acme only', role: 'tenant', tenantId: tenantIds[0] })
    // A lifetime counted from now: its instant differs by the time between the two requests.
    await createToken('admin', { name: 'CI', role: 'admin', expires: '30d' }, ['expires_at'])
    expect(viewer.sqlite.record.status).toBe('active')
    tenantToken = { sqlite: tenant.sqlite.token, postgres: tenant.postgres.token }
    // Used: who it is, and the list shows its last use (an instant of now).
    expect(await pair.query('tokens.whoami', undefined, { token: tenantToken })).toEqual({ role: 'tenant', tenantId: tenantIds[0] })
    expect(await pair.query('tokens.whoami', undefined, { token: { sqlite: viewer.sqlite.token, postgres: viewer.postgres.token } })).toEqual({ role: 'viewer', tenantId: null })
    const listed = await pair.same('/trpc/tokens.list', { volatile: ['expires_at'] })
    const records = dataOf<Array<{ name: string; last_used_at: string | null }>>(listed.sqlite)
    expect(records.map((r) => [r.name, r.last_used_at !== null])).toEqual([['Support laptop', true], ['Acme only', true], ['CI', false]])
    for (const store of STORES) noSecretIn(listed[store].body)
    // Revoked by id: refused from then on, listed as revoked; revoking again answers the same.
    for (let time = 0; time < 2; time++) {
      const answers = {} as Record<Store, Answer>
      for (const store of STORES) answers[store] = await pair.request(store, '/trpc/tokens.revoke', { method: 'POST', body: { id: viewer[store].record.id } })
      expect(pair.normal('postgres', answers.postgres)).toEqual(pair.normal('sqlite', answers.sqlite))
      expect(answers.sqlite.status).toBe(200)
      expect(dataOf<{ status: string; revoked_at: string }>(answers.sqlite)).toMatchObject({ status: 'revoked', revoked_at: expect.any(String) })
      for (const store of STORES) noSecretIn(answers[store].body)
    }
    for (const store of STORES) {
      const response = await pair.servers[store].get('/trpc/tokens.whoami', { headers: bearer(viewer[store].token) })
      expect(response.status).toBe(401)
    }
    const after = await pair.same('/trpc/tokens.list', { volatile: ['expires_at'] })
    expect(dataOf<Array<{ status: string }>>(after.sqlite).map((r) => r.status)).toEqual(['revoked', 'active', 'active'])
    for (const store of STORES) noSecretIn(after[store].body)
  })

  it('bad requests and other roles refused alike', async () => {
    for (const input of [{ name: 'x', role: 'tenant' }, { name: '', role: 'viewer' }, { name: 'x', role: 'owner' }, { name: 'x', role: 'viewer', expires: 'someday' }, { name: 'x', role: 'viewer', expires: '2020-01-01' }]) {
      expect((await pair.mutate('tokens.create', input)).sqlite.status, JSON.stringify(input)).toBe(400)
    }
    expect((await pair.mutate('tokens.revoke', { id: '0b8c7a3e-0000-4000-8000-000000000000' })).sqlite.status).toBe(400)
    expect(await pair.refused('tokens.list', undefined, { token: tenantToken })).toBe(403)
    expect((await pair.mutate('tokens.create', { name: 'x', role: 'admin' }, { token: tenantToken })).sqlite.status).toBe(403)
    const listed = await pair.same('/trpc/tokens.list', { volatile: ['expires_at'] })
    expect(dataOf<unknown[]>(listed.sqlite)).toHaveLength(3)
  })
})

describe('saved views on SQLite and PostgreSQL', { timeout: 120_000 }, () => {
  const views = new Map<string, Record<Store, string>>()

  /** savedViews.create on both; the new view's id labelled by its name. */
  async function create(input: { name: string; description?: string | null; state: Record<string, unknown> }): Promise<void> {
    const ids = {} as Record<Store, string>
    for (const store of STORES) {
      const answer = await pair.request(store, '/trpc/savedViews.create', { method: 'POST', body: input })
      expect(answer.status, JSON.stringify(answer.body)).toBe(200)
      ids[store] = dataOf<{ id: string }>(answer).id
    }
    pair.label(`view ${input.name}`, ids)
    views.set(input.name, ids)
    expect((await onView('savedViews.get', input.name, {}, 'GET')).sqlite.status).toBe(200)
    await nextMillisecond()
  }

  /** The same procedure on both with each store's own id of the view. */
  async function onView(procedure: string, name: string, extra: Record<string, unknown> = {}, method = 'POST'): Promise<Record<Store, Answer>> {
    const answers = {} as Record<Store, Answer>
    for (const store of STORES) {
      const input = { id: views.get(name)![store], ...extra }
      answers[store] = method === 'GET'
        ? await pair.request(store, `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`)
        : await pair.request(store, `/trpc/${procedure}`, { method, body: input })
    }
    expect(pair.normal('postgres', answers.postgres)).toEqual(pair.normal('sqlite', answers.sqlite))
    return answers
  }

  it('created, listed by name ignoring ASCII case, renamed, updated, deleted alike', async () => {
    expect(await pair.query('savedViews.list')).toEqual([])
    await create({ name: 'Timeouts, last 24 hours', description: 'For the weekly review', state: { query: 'level:error timeout', from: 'now-24h', level: ['error'] } })
    await create({ name: 'beta calls', state: { query: 'type:call', cols: ['time', 'level', 'message', 'details.latency_ms'] } })
    await create({ name: 'Écoute', state: { query: '"rate limit"', tz: 'Europe/Paris' } })
    await create({ name: 'alpha', description: null, state: { agent: agentId } })
    const listed = await pair.query<Array<{ name: string }>>('savedViews.list')
    // lower() folds ASCII only on both stores: 'Écoute' sorts after every ASCII letter.
    expect(listed.map((v) => v.name)).toEqual(['alpha', 'beta calls', 'Timeouts, last 24 hours', 'Écoute'])
    // A rename, a clash in another case (one name whatever its case), a new state, a description cleared.
    expect((await onView('savedViews.update', 'alpha', { patch: { name: 'Zulu' } })).sqlite.status).toBe(200)
    expect((await onView('savedViews.update', 'beta calls', { patch: { name: 'TIMEOUTS, last 24 hours' } })).sqlite.status).toBe(409)
    expect((await onView('savedViews.update', 'beta calls', { patch: { state: { query: 'type:transfer', level: ['warning', 'error'] } } })).sqlite.status).toBe(200)
    expect((await onView('savedViews.update', 'Timeouts, last 24 hours', { patch: { description: '' } })).sqlite.status).toBe(200)
    const changed = await pair.query<Array<{ name: string; description: string | null }>>('savedViews.list')
    expect(changed.map((v) => [v.name, v.description])).toEqual([['beta calls', null], ['Timeouts, last 24 hours', null], ['Zulu', null], ['Écoute', null]])
    for (const bad of [{ name: 'écoute', state: {} }, { name: 'a\tb', state: {} }, { name: ' ', state: {} }]) {
      const status = (await pair.mutate('savedViews.create', bad)).sqlite.status
      expect(status, JSON.stringify(bad)).toBeGreaterThanOrEqual(400)
    }
    expect((await onView('savedViews.remove', 'Écoute')).sqlite.status).toBe(200)
    expect((await onView('savedViews.get', 'Écoute', {}, 'GET')).sqlite.status).toBe(404)
    expect((await onView('savedViews.remove', 'Écoute')).sqlite.status).toBe(404)
    expect((await pair.query<unknown[]>('savedViews.list')).length).toBe(3)
  })

  it('a tenant token may neither read nor write them, alike', async () => {
    expect(await pair.refused('savedViews.list', undefined, { token: tenantToken })).toBe(403)
    expect((await pair.mutate('savedViews.create', { name: 'mine', state: {} }, { token: tenantToken })).sqlite.status).toBe(403)
  })
})
