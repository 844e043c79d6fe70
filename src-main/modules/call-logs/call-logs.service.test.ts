import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import { seedDatabase } from '../../seed'
import { createCallLogsService } from './call-logs.service'

let handle: DatabaseHandle
const admin = { role: 'admin' as const, tenantId: null, tokenId: null }
beforeAll(async () => {
  handle = await migratedDb()
  seedDatabase(handle, { scale: 'small', seed: 2, anchor: Date.parse('2026-11-20T12:00:00Z') })
})
afterAll(async () => handle.close())

describe('call logs service', () => {
  it('builds the same records as JSON bytes as it does as objects', async () => {
    const service = createCallLogsService(handle.db, handle.json)
    const agent = handle.sqlite.prepare('select agent_id from call_logs where agent_id is not null limit 1').pluck().get() as string
    const tenant = handle.sqlite.prepare('select tenant_id from call_logs limit 1').pluck().get() as string
    for (const [principal, query] of [
      [admin, { limit: 1000 }],
      [admin, { limit: 50, agent_id: agent, start_date: '2026-11-01T00:00:00.000Z', end_date: '2026-11-15T23:59:59.999Z' }],
      [{ role: 'tenant' as const, tenantId: tenant, tokenId: null }, { limit: 200 }],
      [admin, { limit: 10, start_date: '2030-01-01T00:00:00.000Z' }],
    ] as const) {
      const objects = await service.list(principal, query)
      const text = new TextDecoder().decode(await service.listJson(principal, query))
      expect(JSON.parse(text)).toEqual(objects)
      // Field order of the spec, so the text reads like the FastAPI backend's.
      if (objects.length > 0) expect(Object.keys(JSON.parse(text)[0])).toEqual(Object.keys(objects[0]!))
    }
    expect(new TextDecoder().decode(await service.listJson(admin, { limit: 10, start_date: '2030-01-01T00:00:00.000Z' }))).toBe('[]')
  })
})
