import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { TOKEN_EXPIRED } from '../../kit/http/auth'
import { createTokenService, TokenError } from './tokens.service'

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  insert(handle, 'tenants', rows.tenant())
})
afterEach(async () => {
  vi.useRealTimers()
  await handle.close()
})

describe('token service', () => {
  it('stores only a SHA-256 hash and authenticates the token it returned once', async () => {
    const tokens = createTokenService(handle.db)
    const { token, record } = await tokens.create({ name: 'ci', role: 'viewer' })
    expect(token).toMatch(/^cs_[A-Za-z0-9_-]{32}$/)
    const stored = handle.sqlite.prepare('select * from api_tokens').get() as Record<string, string>
    expect(JSON.stringify(stored)).not.toContain(token)
    expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(record.token_prefix).toBe(token.slice(0, 10))
    expect(await tokens.authenticate(token)).toEqual({ role: 'viewer', tenantId: null, tokenId: record.id })
    expect(await tokens.authenticate(`${token}x`)).toBeNull()
    expect(await tokens.authenticate('')).toBeNull()
  })

  it('keeps last_used_at, writing it at most once a minute', async () => {
    vi.useFakeTimers({ now: Date.parse('2026-11-22T10:00:00Z'), toFake: ['Date'] })
    const tokens = createTokenService(handle.db)
    const { token, record } = await tokens.create({ name: 'ci', role: 'admin' })
    const lastUsed = () => handle.sqlite.prepare('select last_used_at from api_tokens where id = ?').pluck().get(record.id)
    expect(lastUsed()).toBeNull()
    await tokens.authenticate(token)
    expect(lastUsed()).toBe('2026-11-22T10:00:00.000Z')
    vi.setSystemTime(Date.parse('2026-11-22T10:00:30Z'))
    await tokens.authenticate(token)
    expect(lastUsed()).toBe('2026-11-22T10:00:00.000Z')
    vi.setSystemTime(Date.parse('2026-11-22T10:01:05Z'))
    await tokens.authenticate(token)
    expect(lastUsed()).toBe('2026-11-22T10:01:05.000Z')
  })

  it('revokes by id or prefix, after which the token no longer works', async () => {
    const tokens = createTokenService(handle.db)
    const a = await tokens.create({ name: 'a', role: 'admin' })
    const b = await tokens.create({ name: 'b', role: 'viewer' })
    await expect(tokens.revoke('cs_')).rejects.toThrow(TokenError)
    const revoked = await tokens.revoke(a.record.token_prefix)
    expect(revoked.revoked_at).not.toBeNull()
    expect(await tokens.authenticate(a.token)).toBeNull()
    await tokens.revoke(b.record.id.slice(0, 8))
    expect(await tokens.authenticate(b.token)).toBeNull()
    await expect(tokens.revoke('zzzzzzzz')).rejects.toThrow(/no token matches/)
  })

  it('scopes tenant tokens to an existing tenant and refuses scoping other roles', async () => {
    const tokens = createTokenService(handle.db)
    const { token } = await tokens.create({ name: 't', role: 'tenant', tenantId: IDS.tenant })
    expect(await tokens.authenticate(token)).toMatchObject({ role: 'tenant', tenantId: IDS.tenant })
    await expect(tokens.create({ name: 't', role: 'tenant' })).rejects.toThrow(/needs a tenant/)
    await expect(tokens.create({ name: 't', role: 'tenant', tenantId: IDS.otherTenant })).rejects.toThrow(/not found/)
    await expect(tokens.create({ name: 'v', role: 'viewer', tenantId: IDS.tenant })).rejects.toThrow(/not scoped/)
  })

  it('accepts the environment token as admin without storing it', async () => {
    const tokens = createTokenService(handle.db, { envToken: 'local-secret' })
    expect(await tokens.authenticate('local-secret')).toEqual({ role: 'admin', tenantId: null, tokenId: null })
    expect(await tokens.authenticate('local-secreT')).toBeNull()
    expect(handle.sqlite.prepare('select count(*) from api_tokens').pluck().get()).toBe(0)
  })

  it('accepts a token up to the millisecond before its expiry and refuses it from then on', async () => {
    let now = Date.parse('2026-11-22T10:00:00.000Z')
    const tokens = createTokenService(handle.db, { now: () => now })
    const { token, record } = await tokens.create({ name: 'ci', role: 'viewer', expires: '30d' })
    expect(record).toMatchObject({ created_at: '2026-11-22T10:00:00.000Z', expires_at: '2026-12-22T10:00:00.000Z', status: 'active' })
    const expiresMs = Date.parse(record.expires_at!)
    now = expiresMs - 1
    expect(await tokens.authenticate(token)).toEqual({ role: 'viewer', tenantId: null, tokenId: record.id })
    const lastUsed = () => handle.sqlite.prepare('select last_used_at from api_tokens').pluck().get()
    expect(lastUsed()).toBe('2026-12-22T09:59:59.999Z')
    now = expiresMs
    expect(await tokens.authenticate(token)).toBe(TOKEN_EXPIRED)
    now = expiresMs + 60_000
    expect(await tokens.authenticate(token)).toBe(TOKEN_EXPIRED)
    expect(lastUsed()).toBe('2026-12-22T09:59:59.999Z')
  })

  it('lists each token with its expiry and status, revoked before expired', async () => {
    let now = Date.parse('2026-11-22T10:00:00.000Z')
    const tokens = createTokenService(handle.db, { now: () => now })
    // A millisecond apart: the listing is in order of creation.
    await tokens.create({ name: 'forever', role: 'admin' })
    now += 1
    await tokens.create({ name: 'day', role: 'viewer', expires: '2026-11-23' })
    now += 1
    const gone = await tokens.create({ name: 'gone', role: 'viewer', expires: '1h' })
    await tokens.revoke(gone.record.id)
    now = Date.parse('2026-11-23T00:00:00.000Z')
    const listed = (await tokens.list()).map(({ name, expires_at, status }) => ({ name, expires_at, status }))
    expect(listed).toEqual([
      { name: 'forever', expires_at: null, status: 'active' },
      { name: 'day', expires_at: '2026-11-23T00:00:00.000Z', status: 'expired' },
      { name: 'gone', expires_at: '2026-11-22T11:00:00.002Z', status: 'revoked' },
    ])
  })

  it('refuses a lifetime it cannot read or that is not in the future, storing nothing', async () => {
    const tokens = createTokenService(handle.db, { now: () => Date.parse('2026-11-22T10:00:00.000Z') })
    await expect(tokens.create({ name: 'x', role: 'viewer', expires: '30 days' })).rejects.toThrow(TokenError)
    await expect(tokens.create({ name: 'x', role: 'viewer', expires: '30 days' })).rejects.toThrow(/^expires "30 days" is invalid. Expected "never", a duration such as 12h/)
    await expect(tokens.create({ name: 'x', role: 'viewer', expires: '2026-11-22' })).rejects.toThrow(/must be in the future/)
    expect(handle.sqlite.prepare('select count(*) from api_tokens').pluck().get()).toBe(0)
  })

  it('counts only admin tokens that still work as active admins', async () => {
    let now = Date.parse('2026-11-22T10:00:00.000Z')
    const tokens = createTokenService(handle.db, { now: () => now })
    await tokens.create({ name: 'short', role: 'admin', expires: '1h' })
    expect(await tokens.countActiveAdmins()).toBe(1)
    now += 3_600_000
    expect(await tokens.countActiveAdmins()).toBe(0)
  })
})
