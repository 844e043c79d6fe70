import { TRPCError } from '@trpc/server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import { createCallerFactory } from '../../kit/trpc'
import type { Principal } from '../../kit/access'
import { squadsRouter } from './squads.router'
import { createSquadsService } from './squads.service'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const VIEWER: Principal = { role: 'viewer', tenantId: null, tokenId: 'v' }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const OTHER: Principal = { role: 'tenant', tenantId: IDS.otherTenant, tokenId: 'k2' }
const FOREIGN_SQUAD = '77777777-7777-4777-8777-777777777777'
const EMPTY_SQUAD = '66666666-6666-4666-8666-666666666666'

let handle: DatabaseHandle
beforeEach(async () => {
  handle = await migratedDb()
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo' }))
  insert(handle, 'squads', rows.squad())
  insert(handle, 'squads', rows.squad({ id: EMPTY_SQUAD, name: 'Backline', routing_strategy: 'priority' }))
  insert(handle, 'squads', rows.squad({ id: FOREIGN_SQUAD, tenant_id: IDS.otherTenant, name: 'Globex desk', routing_strategy: 'least_busy' }))
  insert(handle, 'squad_members', rows.squadMember({ agent_id: IDS.agent, role: 'lead', priority: 0 }))
  insert(handle, 'squad_members', rows.squadMember({ agent_id: IDS.agent2, role: 'member', priority: 1 }))
  insert(handle, 'squad_members', rows.squadMember({ squad_id: FOREIGN_SQUAD, agent_id: IDS.agent }))
})
afterEach(() => handle.close())

describe('squads.list', () => {
  it('lists every squad for admin and viewer tokens, by tenant name then squad name, with member counts', async () => {
    const service = createSquadsService(handle.db)
    const expected = [
      { id: EMPTY_SQUAD, name: 'Backline', tenant_id: IDS.tenant, tenant_name: 'Acme', routing_strategy: 'priority', member_count: 0, pulled: null },
      { id: IDS.squad, name: 'Desk', tenant_id: IDS.tenant, tenant_name: 'Acme', routing_strategy: 'round_robin', member_count: 2, pulled: null },
      { id: FOREIGN_SQUAD, name: 'Globex desk', tenant_id: IDS.otherTenant, tenant_name: 'Globex', routing_strategy: 'least_busy', member_count: 1, pulled: null },
    ]
    expect(await service.list(ADMIN)).toEqual(expected)
    expect(await service.list(VIEWER)).toEqual(expected)
  })

  it("shows a tenant token only its tenant's squads", async () => {
    const service = createSquadsService(handle.db)
    expect((await service.list(TENANT)).map((s) => s.id)).toEqual([EMPTY_SQUAD, IDS.squad])
    expect((await service.list(OTHER)).map((s) => s.id)).toEqual([FOREIGN_SQUAD])
  })

  it('is served through tRPC, scoped by the caller, next to analytics', async () => {
    const squads = createSquadsService(handle.db, { now: () => Date.parse('2026-11-20T00:00:00.000Z') })
    const caller = createCallerFactory(squadsRouter(squads))({ principal: OTHER })
    expect((await caller.list()).map((s) => s.name)).toEqual(['Globex desk'])
    // A squad the list hides is also not found by analytics.
    await expect(caller.analytics({ squadId: IDS.squad })).rejects.toBeInstanceOf(TRPCError)
  })

  describe('pulled squads', () => {
    const pulled = (squadId: string, body: object, fetchedAt = '2026-11-20T08:00:00.000Z', source = 'http://127.0.0.1:9') =>
      handle.sqlite
        .prepare(
          "insert into pulled_squad_analytics (source, squad_id, squad_name, tenant_id, period_start, period_end, body, fetched_at, pull_id) values (?, ?, json_extract(?, '$.squad_name'), json_extract(?, '$.tenant_id'), '2026-10-21T00:00:00.000Z', '2026-11-20T00:00:00.000Z', ?, ?, 'p1')",
        )
        .run(source, squadId, JSON.stringify(body), JSON.stringify(body), JSON.stringify(body), fetchedAt)

    it('lists a squad known only from a pull once (its latest fetch from any source), beside local ones, and hides one a local squad shadows', async () => {
      pulled('sq-remote', { squad_name: 'Remote desk', tenant_id: IDS.tenant, routing_strategy: 'skills_based', member_utilization: [{}, {}, {}] }, '2026-11-19T00:00:00.000Z', 'http://staging:9')
      pulled('sq-remote', { squad_name: 'Remote desk', tenant_id: IDS.tenant, routing_strategy: 'skills_based', member_utilization: [{}, {}, {}] })
      pulled('sq-bare', { figures: [] })
      pulled(IDS.squad, { squad_name: 'Shadowed', tenant_id: IDS.tenant })
      const service = createSquadsService(handle.db)
      const list = await service.list(ADMIN)
      expect(list.map((s) => s.id)).toEqual([EMPTY_SQUAD, IDS.squad, 'sq-remote', FOREIGN_SQUAD, 'sq-bare'])
      expect(list.find((s) => s.id === 'sq-remote')).toEqual({
        id: 'sq-remote',
        name: 'Remote desk',
        tenant_id: IDS.tenant,
        tenant_name: 'Acme',
        routing_strategy: 'skills_based',
        member_count: 3,
        pulled: { source: 'http://127.0.0.1:9', fetchedAt: '2026-11-20T08:00:00.000Z' },
      })
      // What the answer does not say stays unsaid rather than made up.
      expect(list.find((s) => s.id === 'sq-bare')).toMatchObject({ name: 'sq-bare', tenant_id: null, tenant_name: null, routing_strategy: null, member_count: null })
      expect((await service.list(TENANT)).map((s) => s.id)).toEqual([EMPTY_SQUAD, IDS.squad, 'sq-remote'])
      expect((await service.list(OTHER)).map((s) => s.id)).toEqual([FOREIGN_SQUAD])
    })

    it('answers a pulled squad as fetched, whatever period is asked, and the console only what it can draw', async () => {
      pulled('sq-bare', { figures: [] })
      const service = createSquadsService(handle.db)
      const answer = await service.answer(ADMIN, 'sq-bare', { start_date: '2020-01-01' })
      expect(answer).toEqual({
        kind: 'pulled',
        json: '{"figures":[]}',
        pulled: { source: 'http://127.0.0.1:9', fetchedAt: '2026-11-20T08:00:00.000Z', periodStart: '2026-10-21T00:00:00.000Z', periodEnd: '2026-11-20T00:00:00.000Z', defaultsAt: null },
      })
      // Pulled before the date-less answer was fetched (no default_body): the range's answer, without dates too.
      expect(await service.answer(ADMIN, 'sq-bare', {})).toEqual(answer)
      await expect(service.view(ADMIN, 'sq-bare', {})).rejects.toThrow(/not in a shape the console can draw; the Data page shows them/)
      // A pulled squad of no stated tenant is an admin's: a tenant token does not see it.
      await expect(service.answer(TENANT, 'sq-bare', {})).rejects.toThrow(/Squad not found/)
    })

    it("answers a request without dates with the source's date-less answer, its period and when the source's clock chose it (issue 36 pt 5)", async () => {
      const byDefault = { squad_id: 'sq-remote', tenant_id: IDS.tenant, period: { start: '2026-10-20T08:00:00.000Z', end: '2026-11-19T08:00:00.000Z', hours: 720 } }
      pulled('sq-remote', { squad_id: 'sq-remote', tenant_id: IDS.tenant, period: { start: '2026-10-21T00:00:00.000Z', end: '2026-11-20T00:00:00.000Z' } })
      pulled('sq-bare', { figures: [] })
      const setDefault = handle.sqlite.prepare("update pulled_squad_analytics set default_body = ?, default_fetched_at = '2026-11-20T08:00:01.000Z' where squad_id = ?")
      setDefault.run(JSON.stringify(byDefault), 'sq-remote')
      setDefault.run('{"figures":[1]}', 'sq-bare')
      const service = createSquadsService(handle.db)
      expect(await service.answer(ADMIN, 'sq-remote', {})).toEqual({
        kind: 'pulled',
        json: JSON.stringify(byDefault),
        pulled: { source: 'http://127.0.0.1:9', fetchedAt: '2026-11-20T08:00:01.000Z', periodStart: '2026-10-20T08:00:00.000Z', periodEnd: '2026-11-19T08:00:00.000Z', defaultsAt: '2026-11-20T08:00:01.000Z' },
      })
      // With either date: the pull's range, as before.
      for (const query of [{ start_date: '2026-11-01' }, { end_date: '2026-11-01' }]) {
        expect(await service.answer(ADMIN, 'sq-remote', query)).toMatchObject({ pulled: { periodStart: '2026-10-21T00:00:00.000Z', defaultsAt: null } })
      }
      // A shape that states no period: served all the same, its period unknown.
      expect(await service.answer(ADMIN, 'sq-bare', {})).toMatchObject({ json: '{"figures":[1]}', pulled: { periodStart: null, periodEnd: null, defaultsAt: '2026-11-20T08:00:01.000Z' } })
    })
  })
})
