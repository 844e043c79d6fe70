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

  describe('agents known only from a pull', () => {
    const pulledAgent = (id: string, tenantId: string | null, sessions: number, fetchedAt = '2026-11-20T08:00:00.000Z', source = 'http://prod:8080') => {
      handle.sqlite.prepare("insert into pulled_agents (source, id, tenant_id, fetched_at, pull_id) values (?, ?, ?, ?, 'p1')").run(source, id, tenantId, fetchedAt)
      const item = handle.sqlite.prepare(
        "insert into pulled_sessions (source, agent_id, position, conversation_id, created_at, updated_at, message_count, last_message_preview) values (?, ?, ?, ?, '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z', 2, 'hi')",
      )
      for (let i = 0; i < sessions; i++) item.run(source, id, i, `${id}-c${i}`)
    }

    it('lists them after the local agents, once each (latest fetch), counted from the listing, and hides one a local agent shadows', async () => {
      pulledAgent('agent-x', IDS.tenant, 1, '2026-11-19T00:00:00.000Z', 'http://staging:8080')
      pulledAgent('agent-x', IDS.tenant, 3)
      pulledAgent('agent-orphan', null, 2)
      pulledAgent(IDS.agent, IDS.tenant, 5)
      // Named by the pulled analytics of a squad it is a member of (the backend has no agent profile).
      handle.sqlite
        .prepare("insert into pulled_squad_analytics (source, squad_id, period_start, period_end, body, fetched_at, pull_id) values ('http://prod:8080', 'sq', 'a', 'b', ?, '2026-11-20T08:00:00.000Z', 'p1')")
        .run(JSON.stringify({ member_utilization: [{ agent_id: 'agent-x', agent_name: 'Xena · Desk' }, { agent_id: 'agent-orphan', agent_name: 42 }] }))
      const list = await service.list(ADMIN)
      expect(list.map((a) => [a.name ?? a.id, a.session_count])).toEqual([
        ['Aria', 2],
        ['Mateo', 0],
        ['Gus', 0],
        ['agent-orphan', 2],
        ['Xena · Desk', 3],
      ])
      expect(list.at(-1)).toMatchObject({ tenant_name: 'Acme', status: null, llm_provider: null, pulled: { source: 'http://prod:8080', fetchedAt: '2026-11-20T08:00:00.000Z' } })
      // A tenant token sees its tenant's pulled agents, not one of no known tenant.
      expect((await service.list(TENANT)).map((a) => a.name ?? a.id)).toEqual(['Aria', 'Mateo', 'Xena · Desk'])
      expect((await service.list(ADMIN, { search: 'AGENT-X' })).map((a) => a.id)).toEqual(['agent-x'])
      expect((await service.list(ADMIN, { search: 'xena' })).map((a) => a.id)).toEqual(['agent-x'])
    })

    it('answers get with what a pull knows, and 404 where the principal may not see it', async () => {
      pulledAgent('agent-x', IDS.tenant, 3)
      pulledAgent('agent-orphan', null, 0)
      expect(await service.get(TENANT, 'agent-x')).toEqual({
        kind: 'pulled', id: 'agent-x', tenant_id: IDS.tenant, tenant_name: 'Acme', name: null, languages: [], primary_language: null,
        llm_provider: null, llm_model: null, stt_provider: null, stt_model: null, tts_provider: null, tts_model: null, status: null,
        session_count: 3, pulled: { source: 'http://prod:8080', fetchedAt: '2026-11-20T08:00:00.000Z' },
      })
      await expect(service.get(TENANT, 'agent-orphan')).rejects.toBeInstanceOf(NotFoundError)
      expect(await service.get(ADMIN, 'agent-orphan')).toMatchObject({ kind: 'pulled', session_count: 0 })
      expect(await service.get(ADMIN, IDS.agent)).toMatchObject({ kind: 'local', name: 'Aria' })
    })
  })
})
