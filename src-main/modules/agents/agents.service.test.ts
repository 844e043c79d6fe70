import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, insertParents, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { NotFoundError } from '../../kit/errors'
import type { Principal } from '../../kit/access'
import { createAgentsService } from './agents.service'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const GLOBEX_AGENT = '33333333-3333-4333-8333-333333333333'

let handle: DatabaseHandle
let service: ReturnType<typeof createAgentsService>

beforeEach(async () => {
  handle = await migratedDb()
  service = createAgentsService(handle.db)
  insertParents(handle) // Acme: Aria (1 session), Mateo
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(handle, 'agents', rows.agent({ id: GLOBEX_AGENT, tenant_id: IDS.otherTenant, name: 'Gus', languages: '["ar","en"]', primary_language: 'ar' }))
  insert(handle, 'conversations', rows.conversation({ id: 'c2' }))
})
afterEach(() => handle.close())

describe('agents', () => {
  it('lists every agent for an admin, by tenant then name, with session counts', async () => {
    const list = await service.list(ADMIN)
    expect(list.map((a) => [a.tenant_name, a.name, a.session_count])).toEqual([
      ['Acme', 'Aria', 2],
      ['Acme', 'Mateo', 0],
      ['Globex', 'Gus', 0],
    ])
    expect(list[2]!.languages).toEqual(['ar', 'en'])
  })

  it('filters by tenant and search', async () => {
    expect((await service.list(ADMIN, { tenantId: IDS.otherTenant })).map((a) => a.name)).toEqual(['Gus'])
    expect((await service.list(ADMIN, { search: 'MAT' })).map((a) => a.name)).toEqual(['Mateo'])
    expect((await service.list(ADMIN, { search: GLOBEX_AGENT.slice(0, 8) })).map((a) => a.name)).toEqual(['Gus'])
  })

  it('scopes a tenant token to its tenant', async () => {
    expect((await service.list(TENANT)).map((a) => a.name)).toEqual(['Aria', 'Mateo'])
    expect(await service.list(TENANT, { tenantId: IDS.otherTenant })).toEqual([])
    await expect(service.get(TENANT, GLOBEX_AGENT)).rejects.toBeInstanceOf(NotFoundError)
    expect(await service.get(TENANT, IDS.agent)).toMatchObject({ name: 'Aria', tenant_name: 'Acme', session_count: 2, languages: ['en'] })
  })
})
