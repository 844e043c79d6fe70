import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SavedView } from '../../src-shared/schemas/saved-view'
import { ADMIN_TOKEN, bearer, startTestServer, type TestServer, tokenFor } from '../helpers/test-server'
import { trpcHttp } from '../helpers/trpc-http'

/*
 * /views (issue 17 pt 5) against the real listener and store: every answer is checked against the
 * rows the test reads from the same file, and every refused request against the rows it left.
 */

let server: TestServer
let viewer: string
let tenant: string
beforeAll(async () => {
  server = await startTestServer({ seed: false })
  viewer = await tokenFor(server, 'viewer')
  server.sqlite.prepare(`insert into tenants (id, name, billing_plan, meta_data, created_at, updated_at) values ('10000000-0000-4000-8000-000000000001', 'Acme', 'pro', '{}', 't', 't')`).run()
  tenant = await tokenFor(server, 'tenant', '10000000-0000-4000-8000-000000000001')
})
afterAll(() => server.close())

const MISSING = '00000000-0000-4000-8000-00000000dead'
const send = async (method: string, path: string, body?: unknown, token = ADMIN_TOKEN) => {
  const response = await server.get(path, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown> & SavedView) : null }
}
const rows = () => server.sqlite.prepare('select * from saved_views order by lower(name)').all() as Array<Record<string, string>>
const asStored = (v: SavedView) => ({ ...v, state: JSON.stringify(v.state) })

const STATE = { query: 'imeout level:error', from: 'now-24h', cols: ['time', 'message', 'details.provider'], facet: 'provider', by: 'details.provider', top: 3, tz: 'Europe/Paris' }

describe('/views', () => {
  it('creates, lists, gets, replaces, patches and deletes, each answer what the store holds', async () => {
    const created = await send('POST', '/views', { name: 'Timeouts', description: 'Since the deploy', state: STATE })
    expect(created.status).toBe(201)
    const view = created.body!
    expect(created.headers.get('location')).toBe(`/views/${view.id}`)
    expect(view).toEqual({ id: expect.any(String), name: 'Timeouts', description: 'Since the deploy', state: STATE, created_at: expect.any(String), updated_at: view.created_at })
    expect(rows()).toEqual([asStored(view)])

    const other = (await send('POST', '/views', { name: 'acme errors', state: { level: ['error'] } })).body!
    const list = await send('GET', '/views', undefined, viewer)
    expect(list).toMatchObject({ status: 200, body: { views: [other, view] } })
    expect(await send('GET', `/views/${view.id}`, undefined, viewer)).toMatchObject({ status: 200, body: view })
    // Any spelling of the id the other routes take.
    expect((await send('GET', `/views/${view.id.toUpperCase()}`)).body).toEqual(view)

    const replaced = await send('PUT', `/views/${other.id}`, { name: 'Acme errors', state: { level: ['error', 'critical'], live: true } })
    expect(replaced).toMatchObject({ status: 200, body: { id: other.id, name: 'Acme errors', description: null, state: { level: ['error', 'critical'], live: true }, created_at: other.created_at } })
    const patched = await send('PATCH', `/views/${view.id}`, { name: 'Timeouts (EU)' })
    expect(patched.body).toMatchObject({ name: 'Timeouts (EU)', description: 'Since the deploy', state: STATE })
    expect(patched.body!.updated_at >= view.updated_at).toBe(true)
    expect(rows()).toEqual([asStored(replaced.body!), asStored(patched.body!)])

    expect(await send('DELETE', `/views/${other.id}`)).toMatchObject({ status: 204, body: null })
    expect(rows()).toEqual([asStored(patched.body!)])
    expect(await send('DELETE', `/views/${other.id}`)).toEqual(expect.objectContaining({ status: 404, body: { detail: 'View not found' } }))
    await send('DELETE', `/views/${view.id}`)
  })

  it('refuses bad names, descriptions and states with 422 in the spec shape, and stores nothing', async () => {
    const kept = (await send('POST', '/views', { name: 'Kept', state: {} })).body!
    const before = rows()
    const cases: Array<[unknown, Array<Record<string, unknown>>]> = [
      [{ name: '', state: {} }, [{ type: 'string_too_short', loc: ['body', 'name'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } }]],
      [{ name: '   ', state: {} }, [{ type: 'string_too_short', loc: ['body', 'name'] }]],
      [{ name: 'x'.repeat(101), state: {} }, [{ type: 'string_too_long', loc: ['body', 'name'], msg: 'String should have at most 100 characters', ctx: { max_length: 100 } }]],
      [{ name: 'two\nlines', state: {} }, [{ type: 'string_pattern_mismatch', loc: ['body', 'name'], msg: 'A name is one line: no control characters (tabs, line breaks)' }]],
      [{ name: 'ok', description: 'd'.repeat(1001), state: {} }, [{ type: 'string_too_long', loc: ['body', 'description'] }]],
      [{ name: 'ok' }, [{ type: 'missing', loc: ['body', 'state'], msg: 'Field required', input: null }]],
      [{ name: 42, state: [] }, [{ type: 'string_type', loc: ['body', 'name'] }, { type: 'model_attributes_type', loc: ['body', 'state'] }]],
      [{ name: 'ok', state: { query: 'level:error (imeout' } }, [{ type: 'query_syntax', loc: ['body', 'state', 'query'], ctx: { offset: 12, length: 1, column: 13, hint: expect.any(String) } }]],
      [{ name: 'ok', state: { from: 'yesterday' } }, [{ type: 'value_error', loc: ['body', 'state', 'from'] }]],
      [{ name: 'ok', state: { from: 'now-1h', to: 'now-2h' } }, [{ type: 'value_error', loc: ['body', 'state', 'to'], msg: 'Value error, The range ends before it starts' }]],
      [{ name: 'ok', state: { level: ['fatal'] } }, [{ type: 'enum', loc: ['body', 'state', 'level', 0] }]],
      [{ name: 'ok', state: { cols: ['colour'] } }, [{ type: 'value_error', loc: ['body', 'state', 'cols', 0] }]],
      [{ name: 'ok', state: { agent: 'agent_7' } }, [{ type: 'uuid_parsing', loc: ['body', 'state', 'agent'] }]],
      [{ name: 'ok', state: { tz: 'Mars/Olympus' } }, [{ type: 'value_error', loc: ['body', 'state', 'tz'] }]],
      [{ name: 'ok', state: { by: 'message' } }, [{ type: 'value_error', loc: ['body', 'state', 'by'] }]],
      [{ name: 'ok', state: { top: 11 } }, [{ type: 'less_than_equal', loc: ['body', 'state', 'top'] }]],
    ]
    for (const [body, detail] of cases) {
      const answer = await send('POST', '/views', body)
      expect(answer.status, JSON.stringify(body)).toBe(422)
      expect(answer.body!.detail, JSON.stringify(body)).toEqual(detail.map((d) => expect.objectContaining(d)))
    }
    expect((await send('PATCH', `/views/${kept.id}`, {})).body!.detail).toEqual([expect.objectContaining({ type: 'value_error', loc: ['body'], msg: 'Value error, Give at least one of name, description, state' })])
    expect((await send('PATCH', `/views/${kept.id}`, { name: '' })).status).toBe(422)
    expect((await send('PUT', `/views/${kept.id}`, { name: 'ok' })).status).toBe(422)
    expect((await send('POST', '/views', '{"name": "ok",')).body!.detail).toEqual([expect.objectContaining({ type: 'json_invalid' })])
    expect((await send('GET', '/views/not-a-uuid')).body!.detail).toEqual([expect.objectContaining({ type: 'uuid_parsing', loc: ['path', 'id'] })])
    expect(rows()).toEqual(before)
    await send('DELETE', `/views/${kept.id}`)
  })

  it('refuses a name another view has, in any case, with 409, and changes nothing', async () => {
    const first = (await send('POST', '/views', { name: 'Carrier outage', state: {} })).body!
    const second = (await send('POST', '/views', { name: 'Other', state: {} })).body!
    const before = rows()
    const conflict = { status: 409, body: { detail: 'A view named "Carrier outage" already exists: choose another name, or update that view' } }
    expect(await send('POST', '/views', { name: 'CARRIER OUTAGE', state: { query: 'x' } })).toMatchObject(conflict)
    expect(await send('PATCH', `/views/${second.id}`, { name: ' carrier outage ' })).toMatchObject(conflict)
    expect(await send('PUT', `/views/${second.id}`, { name: 'Carrier Outage', state: {} })).toMatchObject(conflict)
    expect(rows()).toEqual(before)
    // A view may change the case of its own name.
    expect((await send('PATCH', `/views/${first.id}`, { name: 'CARRIER OUTAGE' })).body!.name).toBe('CARRIER OUTAGE')
    for (const v of [first, second]) await send('DELETE', `/views/${v.id}`)
  })

  it('answers 404 for a view that is not there, 403 to viewers writing and to tenant tokens, 401 without a token', async () => {
    const view = (await send('POST', '/views', { name: 'Mine', state: {} })).body!
    const before = rows()
    for (const [method, body] of [['GET'], ['PUT', { name: 'x', state: {} }], ['PATCH', { name: 'x' }], ['DELETE']] as const) {
      expect(await send(method, `/views/${MISSING}`, body), method).toMatchObject({ status: 404, body: { detail: 'View not found' } })
    }
    const needsAdmin = { status: 403, body: { detail: 'Not enough permissions: this operation needs an admin token' } }
    expect(await send('POST', '/views', { name: 'x', state: {} }, viewer)).toMatchObject(needsAdmin)
    expect(await send('PATCH', `/views/${view.id}`, { name: 'x' }, viewer)).toMatchObject(needsAdmin)
    expect(await send('DELETE', `/views/${view.id}`, undefined, viewer)).toMatchObject(needsAdmin)
    const notTenants = { status: 403, body: { detail: 'Not enough permissions: saved views need an admin or viewer token' } }
    expect(await send('GET', '/views', undefined, tenant)).toMatchObject(notTenants)
    expect(await send('GET', `/views/${view.id}`, undefined, tenant)).toMatchObject(notTenants)
    expect((await fetch(`${server.url}/views`)).status).toBe(401)
    expect((await fetch(`${server.url}/views`, { method: 'POST' })).status).toBe(401)
    expect(await send('POST', `/views/${view.id}`, { name: 'x' })).toMatchObject({ status: 405 })
    expect(rows()).toEqual(before)
    await send('DELETE', `/views/${view.id}`)
  })

  it('is the same service over tRPC: CONFLICT and BAD_REQUEST where REST says 409 and 422', async () => {
    const trpc = trpcHttp(() => server.url, () => ADMIN_TOKEN)
    const view = await trpc.mutation<SavedView>('savedViews.create', { name: 'Over tRPC', state: { query: 'imeout' } })
    expect((await send('GET', `/views/${view.id}`)).body).toEqual(view)
    expect((await trpc.query<SavedView[]>('savedViews.list')).map((v) => v.name)).toEqual(['Over tRPC'])
    const updated = await trpc.mutation<SavedView>('savedViews.update', { id: view.id, patch: { state: { query: 'imeout', from: 'now-1h' } } })
    expect(updated.state).toEqual({ query: 'imeout', from: 'now-1h' })
    const refused = await fetch(`${server.url}/trpc/savedViews.create`, { method: 'POST', headers: { ...bearer(ADMIN_TOKEN), 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'over trpc', state: {} }) })
    expect(refused.status).toBe(409)
    expect(((await refused.json()) as { error: { data: { code: string } } }).error.data.code).toBe('CONFLICT')
    const bad = await fetch(`${server.url}/trpc/savedViews.create`, { method: 'POST', headers: { ...bearer(ADMIN_TOKEN), 'Content-Type': 'application/json' }, body: JSON.stringify({ name: '', state: {} }) })
    expect(bad.status).toBe(400)
    await trpc.mutation('savedViews.remove', { id: view.id })
    expect(rows()).toEqual([])
  })

  it('is in /openapi.json under its own tag, with each documented answer', async () => {
    const doc = (await (await server.get('/openapi.json')).json()) as { paths: Record<string, Record<string, { tags: string[]; responses: Record<string, unknown> }>> }
    expect(Object.keys(doc.paths['/views']!)).toEqual(['get', 'post'])
    expect(Object.keys(doc.paths['/views/{id}']!)).toEqual(['get', 'put', 'patch', 'delete'])
    expect(doc.paths['/views']!.post!.tags).toEqual(['Saved views (Callscope extension)'])
    expect(Object.keys(doc.paths['/views']!.post!.responses)).toEqual(['201', '401', '403', '409', '422'])
    expect(Object.keys(doc.paths['/views/{id}']!.delete!.responses)).toEqual(['204', '401', '403', '404', '422'])
  })
})
