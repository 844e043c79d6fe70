import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { squadAnalyticsSchema } from '../../src-shared/schemas/squad-analytics'
import { createService, type Service } from '../../src-main/service'
import { createAppRouter } from '../../src-main/server/app-router'
import { createHttpApp, type HttpApp } from '../../src-main/server/http-app'
import { createCallerFactory } from '../../src-main/kit/trpc'
import { IDS, insert, rows } from '../helpers/rows'

const ADMIN = { Authorization: 'Bearer test-token' }
const FOREIGN_SQUAD = '77777777-7777-4777-8777-777777777777'
const PERIOD = 'start_date=2026-11-01&end_date=2026-11-01'
const path = (squadId: string, query = PERIOD) => `/squads/${squadId}/analytics${query ? `?${query}` : ''}`

let service: Service
let app: HttpApp
let tenantToken: string

beforeAll(async () => {
  service = await createService({ dbPath: ':memory:', envToken: 'test-token', seedNewDatabase: false })
  app = createHttpApp({ service, version: 'test' })
  const h = service.handle
  insert(h, 'tenants', rows.tenant())
  insert(h, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(h, 'agents', rows.agent())
  insert(h, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo' }))
  insert(h, 'squads', rows.squad())
  insert(h, 'squads', rows.squad({ id: FOREIGN_SQUAD, tenant_id: IDS.otherTenant, name: 'Globex desk' }))
  insert(h, 'squad_members', rows.squadMember({ role: 'lead' }))
  insert(h, 'squad_members', rows.squadMember({ agent_id: IDS.agent2, priority: 1 }))
  // Two hours of Aria's time on 1 November and one transfer to Mateo.
  insert(h, 'conversations', rows.conversation({ squad_id: IDS.squad, routing_strategy: 'round_robin', wait_ms: 800, resolved: 1, created_at: '2026-11-01T08:00:00.000Z', updated_at: '2026-11-01T10:00:00.000Z', ended_at: '2026-11-01T10:00:00.000Z' }))
  insert(h, 'transfers', rows.transfer({ requested_at: '2026-11-01T09:00:00.000Z', latency_ms: 2400 }))
  tenantToken = (await service.tokens.create({ name: 'globex', role: 'tenant', tenantId: IDS.otherTenant })).token
})
afterAll(async () => service.close())

describe('GET /squads/{squad_id}/analytics', () => {
  it('answers 200 with the analytics of the period', async () => {
    const res = await app.request(path(IDS.squad), { headers: ADMIN })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, any>
    expect(squadAnalyticsSchema.strict().parse(body)).toEqual(body)
    expect(Object.keys(body)).toEqual([
      'squad_id', 'squad_name', 'tenant_id', 'routing_strategy', 'period',
      'transfer_statistics', 'member_utilization', 'routing_strategy_performance', 'session_distribution',
    ])
    expect(body.period).toEqual({ start: '2026-11-01T00:00:00.000Z', end: '2026-11-01T23:59:59.999Z', hours: 24 })
    expect(body.transfer_statistics).toMatchObject({ total: 1, successful: 1, success_rate: 1, mean_time_to_transfer_ms: 2400, p90_time_to_transfer_ms: 2400 })
    expect(body.member_utilization.map((m: any) => [m.agent_name, m.role, m.sessions_handled, m.total_handle_time_ms, m.utilization_pct, m.transfers_in, m.transfers_out])).toEqual([
      ['Aria', 'lead', 1, 7_200_000, 8.33, 0, 1],
      ['Mateo', 'member', 0, 0, 0, 1, 0],
    ])
    expect(body.routing_strategy_performance).toEqual([
      { strategy: 'round_robin', is_current: true, sessions: 1, mean_wait_ms: 800, resolution_rate: 1, transfer_rate: 0 },
    ])
    expect(body.session_distribution.by_hour).toHaveLength(24)
    expect(body.session_distribution.by_hour[8]).toEqual({ hour: 8, sessions: 1 })
  })

  it('defaults to the last 30 days', async () => {
    const res = await app.request(path(IDS.squad, ''), { headers: ADMIN })
    expect(res.status).toBe(200)
    const { period } = (await res.json()) as { period: { start: string; end: string; hours: number } }
    expect(Date.parse(period.end) - Date.parse(period.start)).toBe(30 * 86_400_000)
    expect(Math.abs(Date.parse(period.end) - Date.now())).toBeLessThan(60_000)
    expect(period.hours).toBe(720)
  })

  it('answers 404 for an unknown squad, and for a squad of another tenant to a tenant token', async () => {
    const unknown = await app.request(path('99999999-9999-4999-8999-999999999999'), { headers: ADMIN })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Squad not found' })
    const hidden = await app.request(path(IDS.squad), { headers: { Authorization: `Bearer ${tenantToken}` } })
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ detail: 'Squad not found' })
    const own = await app.request(path(FOREIGN_SQUAD), { headers: { Authorization: `Bearer ${tenantToken}` } })
    expect(own.status).toBe(200)
  })

  it('takes any squad id up to 255 characters: one that is not a UUID is looked up (404), a longer one is refused', async () => {
    const named = await app.request(path('sq-eu-west'), { headers: ADMIN })
    expect(named.status).toBe(404)
    expect(await named.json()).toEqual({ detail: 'Squad not found' })
    const long = await app.request(path('s'.repeat(256)), { headers: ADMIN })
    expect(long.status).toBe(422)
    expect(await long.json()).toEqual({
      detail: [expect.objectContaining({ type: 'string_too_long', loc: ['path', 'squad_id'], ctx: { max_length: 255 } })],
    })
  })

  it('answers 422 for a bad date and for an end before the start', async () => {
    const bad = await app.request(path(IDS.squad, 'start_date=yesterday'), { headers: ADMIN })
    expect(bad.status).toBe(422)
    expect(((await bad.json()) as any).detail).toEqual([expect.objectContaining({ type: 'datetime_from_date_parsing', loc: ['query', 'start_date'] })])
    const reversed = await app.request(path(IDS.squad, 'start_date=2026-11-02&end_date=2026-11-01'), { headers: ADMIN })
    expect(reversed.status).toBe(422)
    expect(((await reversed.json()) as any).detail).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['query', 'end_date'], msg: 'Value error, end_date must not be before start_date' }),
    ])
  })

  it('answers 401 without a token', async () => {
    const res = await app.request(path(IDS.squad))
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    expect(await res.json()).toEqual({ detail: 'Not authenticated' })
  })
})

describe('tRPC squads.analytics', () => {
  const caller = (tenantId: string | null) =>
    createCallerFactory(createAppRouter(service))({ principal: { role: tenantId ? 'tenant' : 'admin', tenantId, tokenId: null } })

  it('serves the same analytics and maps a hidden squad to NOT_FOUND', async () => {
    const viaTrpc = await caller(null).squads.analytics({ squadId: IDS.squad, start_date: '2026-11-01', end_date: '2026-11-01' })
    const viaRest = (await (await app.request(path(IDS.squad), { headers: ADMIN })).json()) as object
    expect(viaTrpc).toEqual({ ...viaRest, pulled: null })
    await expect(caller(IDS.otherTenant).squads.analytics({ squadId: IDS.squad })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(caller(null).squads.analytics({ squadId: IDS.squad, start_date: '2026-11-02', end_date: '2026-11-01' })).rejects.toMatchObject({ code: 'BAD_REQUEST' })
  })
})
