import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { llmProviderIds } from '../../src-main/modules/providers/catalog'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer } from '../helpers/test-server'

/*
 * Issue 15, point 4: two backends (staging and production, say) mirrored into one store that has
 * its own demo data too, all three with the same ids (every test server is seeded alike). Nothing
 * collides: each row knows its source, and `?source=`, the console's source header or a token
 * bound to a source answers as that backend does, byte for byte.
 */

let staging: TestServer
let production: TestServer
let mirror: TestServer

const PULL = { token: ADMIN_TOKEN, since: '2000-01-01', rate: 1000, backoffMs: 5, retries: 2 }

beforeAll(async () => {
  ;[staging, production, mirror] = await Promise.all([startTestServer(), startTestServer(), startTestServer()])
  // Production differs from staging where a mix-up would show: a tenant's name, a line's message.
  production.sqlite.prepare("update tenants set name = name || ' (prod)', updated_at = '2026-11-21T00:00:00.000Z'").run()
  production.sqlite.prepare("update call_logs set message = message || ' [prod]' where seq % 7 = 0").run()
  for (const remote of [staging, production]) {
    const report = await mirror.service.pulls.pull({ baseUrl: remote.url, ...PULL })
    expect(report).toMatchObject({ status: 'completed', failure: null })
  }
}, 180_000)
afterAll(async () => {
  await Promise.all([staging, production, mirror].map((s) => s?.close()))
})

const q = (server: TestServer, sql: string, ...params: unknown[]) => server.sqlite.prepare(sql).all(...params)
const ids = (sql: string) => staging.sqlite.prepare(sql).pluck().all() as string[]
const withSource = (path: string, source: string) => `${path}${path.includes('?') ? '&' : '?'}source=${encodeURIComponent(source)}`

/** The remote's answer and the mirror's for the same path limited to that remote. */
async function compare(remote: TestServer, path: string): Promise<void> {
  const [expected, actual] = await Promise.all([remote.get(path), mirror.get(withSource(path, remote.url))])
  const want = { status: expected.status, body: await expected.text() }
  expect({ status: actual.status, body: await actual.text() }, `${remote.url} ${path}`).toEqual(want)
}

describe('a store mirroring two backends with overlapping ids', () => {
  it('keeps every row of each, with its source, beside its own', () => {
    const perSource = q(mirror, 'select source, count(*) as n from call_logs group by source order by source')
    const lines = (server: TestServer) => (server.sqlite.prepare('select count(*) from call_logs').pluck().get() as number)
    expect(perSource).toEqual([
      // The store's own demo data: the same seed as each backend's.
      { source: '', n: lines(staging) },
      { source: production.url, n: lines(production) },
      { source: staging.url, n: lines(staging) },
    ].sort((a, b) => (a.source < b.source ? -1 : 1)))
    // The same tenant ids three times: the store's own, and one per backend.
    const tenants = ids('select id from tenants order by id')
    expect(q(mirror, 'select id from tenants order by id').map((r) => (r as { id: string }).id)).toEqual(tenants)
    for (const remote of [staging, production]) {
      expect(q(mirror, 'select id, name from pulled_tenants where source = ? order by id', remote.url)).toEqual(q(remote, 'select id, name from tenants order by id'))
    }
  })

  it('answers the seven operations limited to one backend as that backend does', async () => {
    for (const remote of [staging, production]) {
      for (const tenant of ids('select id from tenants order by id')) await compare(remote, `/tenants/${tenant}`)
      for (const agent of ids('select distinct agent_id from call_logs where agent_id is not null order by agent_id limit 12')) {
        await compare(remote, `/logs/calls?agent_id=${agent}&limit=1000`)
      }
      await compare(remote, '/logs/calls?limit=1000')
      for (const agent of ids('select distinct agent_id from conversations order by agent_id limit 8')) {
        await compare(remote, `/agents/${agent}/sessions?limit=50&offset=0`)
      }
      for (const provider of llmProviderIds.slice(0, 3)) await compare(remote, `/admin/providers/llm/${provider}`)
    }
    // Squad analytics are served as fetched, for the period each pull covered: compare the bodies.
    for (const squad of ids('select id from squads order by id')) {
      for (const remote of [staging, production]) {
        const response = await mirror.get(withSource(`/squads/${squad}/analytics`, remote.url))
        expect(response.status).toBe(200)
        expect(response.headers.get('callscope-pulled-from')).toBe(remote.url)
      }
    }
    const trunks = await mirror.get(withSource('/agents/sip/list-trunks', production.url))
    expect(((await trunks.json()) as { source: string }).source).toBe('pulled')
  })

  it('tells the backends apart where they differ, and `local` is the store\'s own', async () => {
    const tenant = ids('select id from tenants order by id')[0]!
    const name = async (source?: string) => ((await (await mirror.get(source === undefined ? `/tenants/${tenant}` : withSource(`/tenants/${tenant}`, source))).json()) as { name: string }).name
    const own = q(mirror, 'select name from tenants where id = ?', tenant)[0] as { name: string }
    expect(await name(production.url)).toBe(`${own.name} (prod)`)
    expect(await name(staging.url)).toBe(own.name)
    expect(await name('local')).toBe(own.name)
    // Unlimited, the store's own tenant answers first, as before it kept more than one source.
    expect(await name()).toBe(own.name)
    // A source may be named without its scheme or with a trailing slash.
    expect(await name(`${production.url.replace('http://', '')}/`)).toBe(`${own.name} (prod)`)
    const prodOnly = q(production, "select id from call_logs where message like '% [prod]' limit 1")[0] as { id: string }
    const listed = (await (await mirror.get(withSource('/logs/calls?limit=1000', staging.url))).json()) as Array<{ message: string }>
    expect(listed.some((l) => l.message.endsWith(' [prod]'))).toBe(false)
    expect(prodOnly.id).toBeTruthy()
  })

  it('refuses an unknown source with a 422 naming the known ones, and a token bound to a source any other', async () => {
    const unknown = await mirror.get('/tenants/x?source=http://nowhere:1')
    expect(unknown.status).toBe(422)
    const body = (await unknown.json()) as { detail: Array<{ loc: string[]; msg: string; type: string }> }
    expect(body.detail[0]).toMatchObject({ loc: ['query', 'source'], type: 'value_error' })
    expect(body.detail[0]!.msg).toContain(staging.url)
    expect(body.detail[0]!.msg).toContain("'local'")
    expect((await mirror.get('/logs/calls?source=local&source=local')).status).toBe(422)

    const { token } = await mirror.service.tokens.create({ name: 'production only', role: 'viewer', source: production.url })
    const tenant = ids('select id from tenants order by id')[0]!
    const asBound = await mirror.get(`/tenants/${tenant}`, { headers: bearer(token) })
    expect(((await asBound.json()) as { name: string }).name).toMatch(/ \(prod\)$/)
    const other = await mirror.get(withSource(`/tenants/${tenant}`, staging.url), { headers: bearer(token) })
    expect(other.status).toBe(403)
    expect(((await other.json()) as { detail: string }).detail).toContain(production.url)
    expect((await mirror.get(withSource(`/tenants/${tenant}`, production.url), { headers: bearer(token) })).status).toBe(200)
  })

  it('limits the console\'s tRPC calls by the source header', async () => {
    const tenant = ids('select id from tenants order by id')[0]!
    const call = (source: string) =>
      mirror.get(`/trpc/tenants.get?input=${encodeURIComponent(JSON.stringify({ tenantId: tenant }))}`, {
        headers: { ...bearer(ADMIN_TOKEN), 'x-callscope-source': source },
      })
    const prod = (await (await call(production.url)).json()) as { result: { data: { name: string } } }
    expect(prod.result.data.name).toMatch(/ \(prod\)$/)
    const local = (await (await call('local')).json()) as { result: { data: { name: string } } }
    expect(local.result.data.name).not.toMatch(/ \(prod\)$/)
    expect((await call('http://nowhere:1')).status).toBe(422)
  })
})
