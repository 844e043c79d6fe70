import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import { IDS, insert, rows } from '../../../test/helpers/rows'
import type { DatabaseHandle } from '../../db/connection'
import type { Principal } from '../../kit/access'
import { createOverviewService, overviewPeriod } from './overview.service'

const ADMIN: Principal = { role: 'admin', tenantId: null, tokenId: null }
const TENANT: Principal = { role: 'tenant', tenantId: IDS.tenant, tokenId: 'k1' }
const OTHER_AGENT = '33333333-3333-4333-8333-333333333333'
const NOW = new Date('2026-11-20T12:00:00.000Z')

let handle: DatabaseHandle
let service: ReturnType<typeof createOverviewService>

let n = 0
const uuid = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`

/**
 * Acme (agents Aria, Mateo) and Globex (one agent). Period: 22 October 00:00 to 20 November.
 * Acme calls: 3 on 20 Nov (1 failed), 1 on 22 Oct (completed), 1 on 21 Oct (outside the period).
 * Globex: 2 failed calls on 20 Nov. Sessions: Aria 3 and Mateo 1 in the period, Mateo 2 before it.
 */
function insertFixture() {
  insert(handle, 'tenants', rows.tenant())
  insert(handle, 'tenants', rows.tenant({ id: IDS.otherTenant, name: 'Globex' }))
  insert(handle, 'agents', rows.agent())
  insert(handle, 'agents', rows.agent({ id: IDS.agent2, name: 'Mateo' }))
  insert(handle, 'agents', rows.agent({ id: OTHER_AGENT, tenant_id: IDS.otherTenant, name: 'Gus' }))
  const call = (started_at: string, status: string, tenant_id = IDS.tenant) => insert(handle, 'calls', rows.call({ id: uuid(), tenant_id, started_at, status }))
  call('2026-11-20T01:00:00.000Z', 'completed')
  call('2026-11-20T02:00:00.000Z', 'failed')
  call('2026-11-20T03:00:00.000Z', 'no_answer')
  call('2026-10-22T00:00:00.000Z', 'completed')
  call('2026-10-21T23:59:59.999Z', 'failed')
  call('2026-11-20T04:00:00.000Z', 'failed', IDS.otherTenant)
  call('2026-11-19T04:00:00.000Z', 'failed', IDS.otherTenant)
  const session = (agent_id: string, created_at: string, tenant_id = IDS.tenant) =>
    insert(handle, 'conversations', rows.conversation({ id: uuid(), agent_id, tenant_id, created_at, updated_at: created_at }))
  for (const t of ['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', '2026-11-20T11:00:00.000Z']) session(IDS.agent, t)
  session(IDS.agent2, '2026-11-10T00:00:00.000Z')
  session(IDS.agent2, '2026-10-01T00:00:00.000Z')
  session(IDS.agent2, '2026-10-02T00:00:00.000Z')
  for (const t of ['2026-11-03T00:00:00.000Z', '2026-11-04T00:00:00.000Z', '2026-11-05T00:00:00.000Z', '2026-11-06T00:00:00.000Z']) session(OTHER_AGENT, t, IDS.otherTenant)
  const log = (o: Record<string, unknown>) => insert(handle, 'call_logs', rows.callLog({ id: uuid(), ...o }))
  log({ log_level: 'error', message: 'Acme error today', timestamp: '2026-11-20T10:00:00.000Z', session_id: 's-1', agent_id: IDS.agent })
  log({ log_level: 'critical', message: 'Acme critical yesterday', timestamp: '2026-11-19T10:00:00.000Z' })
  log({ log_level: 'warning', message: 'Acme warning', timestamp: '2026-11-20T11:00:00.000Z' })
  log({ log_level: 'info', message: 'Acme info', timestamp: '2026-11-20T11:30:00.000Z' })
  log({ log_level: 'error', message: 'Acme old error', timestamp: '2026-09-01T10:00:00.000Z' })
  log({ log_level: 'error', message: 'Globex error', timestamp: '2026-11-20T09:00:00.000Z', tenant_id: IDS.otherTenant })
}

beforeEach(async () => {
  handle = await migratedDb()
  service = createOverviewService(handle.db)
  insertFixture()
})
afterEach(() => handle.close())

describe('overview', () => {
  it('has 30 UTC day buckets ending today', () => {
    const { since, days } = overviewPeriod(NOW)
    expect(since).toBe('2026-10-22T00:00:00.000Z')
    expect(days).toHaveLength(30)
    expect(days[0]).toBe('2026-10-22')
    expect(days[29]).toBe('2026-11-20')
  })

  it('counts every tenant for an admin', async () => {
    const o = await service.get(ADMIN, NOW)
    expect(o.counts).toEqual({ tenants: 2, agents: 3, sessions: 10, calls: 7, call_logs: 6 })
  })

  it('counts only its own tenant for a tenant token', async () => {
    const o = await service.get(TENANT, NOW)
    expect(o.counts).toEqual({ tenants: 1, agents: 2, sessions: 6, calls: 5, call_logs: 5 })
  })

  it('buckets calls, failures and error log lines by day, zero-filled', async () => {
    const o = await service.get(TENANT, NOW)
    expect(o.daily).toHaveLength(30)
    const byDay = Object.fromEntries(o.daily.map((d) => [d.day, d]))
    expect(byDay['2026-11-20']).toEqual({ day: '2026-11-20', calls: 3, failed_calls: 1, error_rate: 1 / 3, error_log_lines: 1 })
    expect(byDay['2026-11-19']).toEqual({ day: '2026-11-19', calls: 0, failed_calls: 0, error_rate: 0, error_log_lines: 1 })
    expect(byDay['2026-10-22']).toMatchObject({ calls: 1, failed_calls: 0 })
    expect(o.daily.reduce((s, d) => s + d.calls, 0)).toBe(4)
    const admin = await service.get(ADMIN, NOW)
    expect(admin.daily.find((d) => d.day === '2026-11-20')).toEqual({ day: '2026-11-20', calls: 4, failed_calls: 2, error_rate: 0.5, error_log_lines: 2 })
    expect(admin.daily.find((d) => d.day === '2026-11-19')).toMatchObject({ calls: 1, failed_calls: 1, error_rate: 1 })
  })

  it('ranks the busiest agents by sessions in the period', async () => {
    expect((await service.get(ADMIN, NOW)).busiest_agents.map((a) => [a.agent_name, a.tenant_name, a.sessions])).toEqual([
      ['Gus', 'Globex', 4],
      ['Aria', 'Acme', 3],
      ['Mateo', 'Acme', 1],
    ])
    expect((await service.get(TENANT, NOW)).busiest_agents.map((a) => [a.agent_name, a.sessions])).toEqual([
      ['Aria', 3],
      ['Mateo', 1],
    ])
  })

  it('lists the latest error and critical lines, newest first, in scope', async () => {
    const tenant = await service.get(TENANT, NOW)
    expect(tenant.recent_errors.map((e) => [e.message, e.log_level])).toEqual([
      ['Acme error today', 'error'],
      ['Acme critical yesterday', 'critical'],
      ['Acme old error', 'error'],
    ])
    expect(tenant.recent_errors[0]).toMatchObject({ session_id: 's-1', agent_name: 'Aria', tenant_name: 'Acme' })
    const admin = await service.get(ADMIN, NOW)
    expect(admin.recent_errors.map((e) => e.message)).toEqual(['Acme error today', 'Globex error', 'Acme critical yesterday', 'Acme old error'])
  })

  it('keeps at most 20 recent errors', async () => {
    for (let i = 0; i < 25; i++) insert(handle, 'call_logs', rows.callLog({ id: uuid(), log_level: i % 2 ? 'error' : 'critical', message: `e${i}`, timestamp: `2026-11-20T11:${String(i).padStart(2, '0')}:00.000Z` }))
    const o = await service.get(ADMIN, NOW)
    expect(o.recent_errors).toHaveLength(20)
    expect(o.recent_errors[0]!.message).toBe('e24')
    expect(o.recent_errors[19]!.message).toBe('e5')
  })
})
