import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
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
})
