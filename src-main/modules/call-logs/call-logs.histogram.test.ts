import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratedDb } from '../../../test/helpers/migrated-db'
import type { DatabaseHandle } from '../../db/connection'
import { seedDatabase } from '../../seed'
import * as repo from './call-logs.search.repo'

let handle: DatabaseHandle
beforeAll(async () => {
  handle = await migratedDb()
  seedDatabase(handle, { scale: 'small', seed: 4, anchor: Date.parse('2026-11-20T12:00:00Z') })
})
afterAll(async () => handle.close())

const sorted = (rows: Array<{ bucket: number; level: string; count: number }>) =>
  [...rows].sort((a, b) => a.bucket - b.bucket || a.level.localeCompare(b.level))

describe('histogram by index range counts', () => {
  it.each([
    ['everything, 12 h buckets', {}, 43_200],
    ['errors and warnings, 1 h buckets', { levels: ['error', 'warning'] }, 3600],
    ['a window with ragged edges', { from: '2026-11-10T07:13:00.000Z', to: '2026-11-12T19:02:59.999Z' }, 3600],
    ['one level in a window, 5 min buckets', { levels: ['info'], from: '2026-11-15T08:00:00.000Z', to: '2026-11-15T11:59:59.999Z' }, 300],
  ])('counts %s exactly as the grouped query does', async (_label, filter, size) => {
    const f: repo.ResolvedCallLogFilter = filter
    expect(repo.rangeCountable(f)).toBe(true)
    const bounds = await repo.timeBounds(handle.db, f)
    const from = f.from ?? bounds.min!
    const to = f.to ?? bounds.max!
    const first = Math.floor(Date.parse(from) / 1000 / size) * size
    const last = Math.floor(Date.parse(to) / 1000 / size) * size
    const grouped = await repo.bucketCounts(handle.db, f, size)
    const ranged = await repo.bucketCountsByRange(handle.db, { ...f, from, to }, size, first, last)
    expect(sorted(ranged)).toEqual(sorted(grouped))
    expect(ranged.reduce((n, r) => n + r.count, 0)).toBeGreaterThan(0)
  })

  it('is used only for filters of time and level', () => {
    expect(repo.rangeCountable({ agentId: 'a' })).toBe(false)
    expect(repo.rangeCountable({ tenantId: 't' })).toBe(false)
    expect(repo.rangeCountable({ types: ['llm'] })).toBe(false)
    expect(repo.rangeCountable({ match: [{ text: 'x', prefix: false }] })).toBe(false)
    expect(repo.rangeCountable({ levels: ['error'], from: '2026-01-01T00:00:00.000Z' })).toBe(true)
  })
})
