import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer, tokenFor } from '../helpers/test-server'

let server: TestServer
let path: string
beforeAll(async () => {
  server = await startTestServer()
  path = `/tenants/${server.sqlite.prepare('select id from tenants limit 1').pluck().get()}`
})
afterAll(async () => server.close())

const raw = (p: string, headers: Record<string, string> = {}) => fetch(`${server.url}${p}`, { headers })

describe('bearer authentication', () => {
  it('refuses a request without a token: 401, WWW-Authenticate: Bearer, JSON body', async () => {
    const response = await raw(path)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer')
    expect(await response.json()).toEqual({ detail: 'Not authenticated' })
  })

  it.each([
    ['an unknown token', 'Bearer cs_nottherightone', 'Bearer error="invalid_token"'],
    ['another scheme', 'Basic dXNlcjpwYXNz', 'Bearer error="invalid_request"'],
    ['a scheme without a token', 'Bearer', 'Bearer error="invalid_request"'],
    ['two tokens', 'Bearer a b', 'Bearer error="invalid_request"'],
  ])('refuses %s with 401', async (_label, header, challenge) => {
    const response = await raw(path, { Authorization: header })
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe(challenge)
    expect(((await response.json()) as { detail: unknown }).detail).toEqual(expect.any(String))
  })

  it.each(['Bearer', 'bearer', 'BEARER', 'BeArEr'])('matches the scheme %s case-insensitively', async (scheme) => {
    expect((await raw(path, { Authorization: `${scheme} test-admin-token` })).status).toBe(200)
  })

  it('accepts a stored token, records its use, and refuses it once revoked', async () => {
    const token = await tokenFor(server, 'viewer')
    expect((await raw(path, { Authorization: `Bearer ${token}` })).status).toBe(200)
    const [record] = (await server.service.tokens.list()).filter((t) => t.name === 'viewer test')
    expect(record!.last_used_at).not.toBeNull()
    await server.service.tokens.revoke(record!.id)
    expect((await raw(path, { Authorization: `Bearer ${token}` })).status).toBe(401)
  })

  it('refuses an expired token with 401 invalid_token saying so, on REST and tRPC, and accepts it before', async () => {
    const { token, record } = await server.service.tokens.create({ name: 'expiring', role: 'viewer', expires: '1h' })
    const auth = { Authorization: `Bearer ${token}` }
    expect((await raw(path, auth)).status).toBe(200)
    // Moved into the past instead of waiting for it: created a day ago, expired a second ago.
    const now = Date.now()
    server.sqlite
      .prepare('update api_tokens set created_at = ?, expires_at = ? where id = ?')
      .run(new Date(now - 86_400_000).toISOString(), new Date(now - 1000).toISOString(), record.id)
    const response = await raw(path, auth)
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="The access token expired"')
    expect(await response.json()).toEqual({ detail: 'The access token expired' })
    const trpc = await raw('/trpc/tokens.whoami', auth)
    expect(trpc.status).toBe(401)
    expect(await trpc.json()).toMatchObject({ error: { message: 'The access token expired', data: { code: 'UNAUTHORIZED' } } })
  })

  it('keeps /healthz, /openapi.json and /docs public', async () => {
    for (const p of ['/healthz', '/openapi.json', '/docs']) expect((await raw(p)).status).toBe(200)
  })
})

describe('listener safety and generic errors', () => {
  it('rejects a Host header that does not name the listener (DNS rebinding) with 421', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/healthz', headers: { Host: `evil.example:${server.port}` } }, (res) => {
        res.resume()
        resolve(res.statusCode!)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(421)
  })

  it('accepts localhost and 127.0.0.1 as Host', async () => {
    const { request } = await import('node:http')
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`]) {
      const status = await new Promise<number>((resolve) => {
        request({ host: '127.0.0.1', port: server.port, path: '/healthz', headers: { Host: host } }, (res) => {
          res.resume()
          resolve(res.statusCode!)
        }).end()
      })
      expect(status).toBe(200)
    }
  })

  it('sends no CORS headers: other origins cannot read responses', async () => {
    const response = await server.get(path, { headers: { Origin: 'https://evil.example' } })
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' } })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('answers an unknown route with 404 and a wrong method with 405 and Allow', async () => {
    const unknown = await server.get('/no/such/route')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Not Found' })
    const wrong = await server.get('/logs/calls', { method: 'DELETE' })
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('allow')).toBe('GET, HEAD')
    expect(await wrong.json()).toEqual({ detail: 'Method Not Allowed' })
  })
})
