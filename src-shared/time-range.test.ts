import { describe, expect, it } from 'vitest'
import { callLogFilterSchema } from './schemas/call-log-search'
import { canonicalRelative, formatDuration, presetOf, relativeOffsetMs, resolveTimeBound, zoomOut } from './time-range'

const NOW = new Date('2026-11-25T10:30:00.000Z')

describe('relative time bounds', () => {
  it('reads now and now-<duration> in every unit, and nothing else', () => {
    expect(relativeOffsetMs('now')).toBe(0)
    expect(relativeOffsetMs('now-15m')).toBe(900_000)
    expect(relativeOffsetMs(' NOW - 2H ')).toBe(7_200_000)
    expect(relativeOffsetMs('now-30s')).toBe(30_000)
    expect(relativeOffsetMs('now-7d')).toBe(7 * 86_400_000)
    expect(relativeOffsetMs('now-2w')).toBe(14 * 86_400_000)
    for (const bad of ['now-0m', 'now-15', 'now+15m', 'now-15y', 'yesterday', '2026-11-01', '', undefined]) expect(relativeOffsetMs(bad)).toBeNull()
  })

  it('writes the canonical form', () => {
    expect(canonicalRelative('NOW - 24H')).toBe('now-24h')
    expect(canonicalRelative('now')).toBe('now')
    expect(canonicalRelative('now-0h')).toBeNull()
  })

  it('resolves against the given now, and leaves instants alone', () => {
    expect(resolveTimeBound('now-15m', NOW)).toBe('2026-11-25T10:15:00.000Z')
    expect(resolveTimeBound('now-24h', NOW)).toBe('2026-11-24T10:30:00.000Z')
    expect(resolveTimeBound('now', NOW)).toBe('2026-11-25T10:30:00.000Z')
    expect(resolveTimeBound('2026-11-01T00:00:00.000Z', NOW)).toBe('2026-11-01T00:00:00.000Z')
  })

  it('knows a preset: a relative start that ends now', () => {
    expect(presetOf({ from: 'now-24h' })).toBe('24h')
    expect(presetOf({ from: 'now-15m', to: 'now' })).toBe('15m')
    expect(presetOf({ from: 'now-3h' })).toBeNull()
    expect(presetOf({ from: 'now-24h', to: 'now-1h' })).toBeNull()
    expect(presetOf({ from: '2026-11-01T00:00:00.000Z' })).toBeNull()
    expect(presetOf({})).toBeNull()
  })

  it('writes durations in their largest whole unit', () => {
    expect(formatDuration(2 * 86_400_000)).toBe('2d')
    expect(formatDuration(14 * 86_400_000)).toBe('2w')
    expect(formatDuration(30 * 60_000)).toBe('30m')
    expect(formatDuration(90 * 60_000)).toBe('90m')
  })
})

describe('zoom out', () => {
  it('doubles an absolute span around its centre', () => {
    expect(zoomOut({ from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T12:00:00.000Z' }, { from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T12:00:00.000Z' }))
      .toEqual({ from: '2026-11-20T09:00:00.000Z', to: '2026-11-20T13:00:00.000Z' })
  })

  it('keeps a range that ends now relative, twice as far back', () => {
    expect(zoomOut({ from: 'now-24h' }, { from: '2026-11-24T10:30:00.000Z', to: '2026-11-25T10:30:00.000Z' })).toEqual({ from: 'now-2d', to: undefined })
    expect(zoomOut({ from: 'now-15m' }, { from: '2026-11-25T10:15:00.000Z', to: '2026-11-25T10:30:00.000Z' })).toEqual({ from: 'now-30m', to: undefined })
  })

  it('zooms an open start (from only) around the span shown', () => {
    expect(zoomOut({ from: '2026-11-20T10:00:00.000Z' }, { from: '2026-11-20T10:00:00.000Z', to: '2026-11-20T10:10:00.000Z' }))
      .toEqual({ from: '2026-11-20T09:55:00.000Z', to: '2026-11-20T10:15:00.000Z' })
  })
})

describe('the filter schema', () => {
  it('keeps relative bounds relative (the service resolves them per read)', () => {
    expect(callLogFilterSchema.parse({ from: 'NOW-15M', to: 'now' })).toEqual({ from: 'now-15m', to: 'now' })
    expect(callLogFilterSchema.parse({ from: 'now-1h', to: '2026-11-01' })).toEqual({ from: 'now-1h', to: '2026-11-01T23:59:59.999Z' })
  })

  it('refuses a bad bound with what to write, and a relative range that ends before it starts', () => {
    const bad = callLogFilterSchema.safeParse({ from: 'now-15x' })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0]?.message).toMatch(/now-15m/)
    const reversed = callLogFilterSchema.safeParse({ from: 'now-1h', to: 'now-2h' })
    expect(reversed.error?.issues[0]?.message).toBe('The range ends before it starts')
  })
})
