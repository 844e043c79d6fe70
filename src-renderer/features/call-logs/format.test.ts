import { describe, expect, it } from 'vitest'
import { formatBound, formatLogTime, formatOffset, parseBoundInput, zoneLabel, zoneOffsetMs } from './format'

/* Zones are passed explicitly (Intl with a timeZone), so these hold on a machine in any zone. */

describe('log times in a zone', () => {
  it('shows UTC as stored, and another zone by its wall clock, to the millisecond', () => {
    expect(formatLogTime('2026-11-20T12:00:00.123Z')).toBe('2026-11-20 12:00:00.123')
    expect(formatLogTime('2026-11-20T12:00:00.123Z', 'UTC')).toBe('2026-11-20 12:00:00.123')
    expect(formatLogTime('2026-11-20T12:00:00.123Z', 'Asia/Kolkata')).toBe('2026-11-20 17:30:00.123')
    expect(formatLogTime('2026-11-20T03:00:00.999Z', 'America/New_York')).toBe('2026-11-19 22:00:00.999')
    // Summer time: four hours behind, not five.
    expect(formatLogTime('2026-07-01T12:00:00.000Z', 'America/New_York')).toBe('2026-07-01 08:00:00.000')
  })

  it('names the zone with its offset at the time asked', () => {
    expect(zoneLabel('UTC')).toBe('UTC')
    expect(zoneLabel('Asia/Kolkata', Date.parse('2026-11-20T00:00:00Z'))).toBe('Asia/Kolkata, UTC+05:30')
    expect(zoneLabel('America/New_York', Date.parse('2026-11-20T00:00:00Z'))).toBe('America/New_York, UTC-05:00')
    expect(zoneLabel('Europe/Paris', Date.parse('2026-07-01T00:00:00Z'))).toBe('Europe/Paris, UTC+02:00')
    expect(formatOffset(0)).toBe('UTC+00:00')
    expect(zoneLabel('Asia/Kolkata', Number.NaN)).toBe('Asia/Kolkata, UTC+05:30')
    expect(zoneOffsetMs('Asia/Kolkata', Date.parse('2026-11-20T00:00:00.500Z'))).toBe(5.5 * 3_600_000)
  })

  it('shows a bound in the From/To boxes in the zone, shortest when whole', () => {
    expect(formatBound('now-15m', 'Asia/Kolkata')).toBe('now-15m')
    expect(formatBound('2026-11-20T12:00:00.000Z', 'Asia/Kolkata')).toBe('2026-11-20 17:30')
    expect(formatBound('2026-11-20T12:00:07.000Z', 'UTC')).toBe('2026-11-20 12:00:07')
    expect(formatBound('2026-11-20T12:00:07.250Z', 'UTC')).toBe('2026-11-20 12:00:07.250')
    expect(formatBound(undefined, 'UTC')).toBe('')
    // A bare date in a hand-written link: a UTC day to the service, the whole of it for To.
    expect(formatBound('2026-11-20', 'UTC', true)).toBe('2026-11-20')
    expect(formatBound('2026-11-20', 'Asia/Kolkata')).toBe('2026-11-20 05:30')
    expect(formatBound('2026-11-20', 'Asia/Kolkata', true)).toBe('2026-11-21 05:29:59.999')
  })
})

describe('From/To as typed', () => {
  it('reads a wall-clock time in the chosen zone', () => {
    expect(parseBoundInput('2026-11-20 17:30', 'Asia/Kolkata', false)).toBe('2026-11-20T12:00:00.000Z')
    expect(parseBoundInput('2026-11-20T17:30:05.5', 'Asia/Kolkata', false)).toBe('2026-11-20T12:00:05.500Z')
    expect(parseBoundInput('2026-11-20 09:30', 'UTC', false)).toBe('2026-11-20T09:30:00.000Z')
  })

  it('makes a bare date the whole day in the zone', () => {
    expect(parseBoundInput('2026-11-20', 'Asia/Kolkata', false)).toBe('2026-11-19T18:30:00.000Z')
    expect(parseBoundInput('2026-11-20', 'Asia/Kolkata', true)).toBe('2026-11-20T18:29:59.999Z')
    expect(parseBoundInput('2026-11-20', 'UTC', true)).toBe('2026-11-20T23:59:59.999Z')
  })

  it('keeps an explicit zone and relative bounds, and crosses DST right', () => {
    expect(parseBoundInput('2026-11-20T12:00:00+02:00', 'Asia/Kolkata', false)).toBe('2026-11-20T10:00:00.000Z')
    expect(parseBoundInput('2026-11-20 12:00Z', 'Asia/Kolkata', false)).toBe('2026-11-20T12:00:00.000Z')
    expect(parseBoundInput(' now - 1H ', 'Asia/Kolkata', false)).toBe('now-1h')
    // 2026-03-08: New York moves from UTC-5 to UTC-4 at 02:00 local.
    expect(parseBoundInput('2026-03-08 01:30', 'America/New_York', false)).toBe('2026-03-08T06:30:00.000Z')
    expect(parseBoundInput('2026-03-08 03:30', 'America/New_York', false)).toBe('2026-03-08T07:30:00.000Z')
  })

  it('refuses what is not a time', () => {
    for (const bad of ['yesterday', '2026-02-31', '2026-11-20 25:00', '20/11/2026', 'now-5x', '']) expect(parseBoundInput(bad, 'UTC', false)).toBeNull()
  })
})
