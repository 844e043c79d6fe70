import { canonicalRelative } from '../../../src-shared/time-range'

/*
 * Call log times in UTC (as stored) or in a named time zone (the viewer's, when they chose local
 * time). Every function takes the zone explicitly, so the same code is tested in any zone on any
 * machine; the console passes the one the user chose (time-zone.ts).
 */

export const UTC = 'UTC'

const partsFormats = new Map<string, Intl.DateTimeFormat>()
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partsFormats.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    partsFormats.set(timeZone, format)
  }
  return format
}

/** How far the zone's wall clock is ahead of UTC at `ms` (negative west of Greenwich). */
export function zoneOffsetMs(timeZone: string, ms: number): number {
  if (timeZone === UTC || !Number.isFinite(ms)) return 0
  const whole = Math.floor(ms / 1000) * 1000
  const p: Record<string, number> = {}
  for (const part of partsFormat(timeZone).formatToParts(whole)) if (part.type !== 'literal') p[part.type] = Number(part.value)
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!) - whole
}

/** Call log times to the millisecond, in the zone's wall clock: 2026-11-01 10:00:00.123. */
export function formatLogTime(iso: string, timeZone = UTC): string {
  if (timeZone === UTC) return iso.replace('T', ' ').replace(/Z$/, '')
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  return new Date(ms + zoneOffsetMs(timeZone, ms)).toISOString().replace('T', ' ').replace(/Z$/, '')
}

export const shortId = (id: string | null) => (id ? id.slice(0, 8) : '—')

/** `UTC+05:30`, `UTC-05:00`, `UTC+00:00`. */
export function formatOffset(offsetMs: number): string {
  const minutes = Math.round(Math.abs(offsetMs) / 60_000)
  return `UTC${offsetMs < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`
}

/** The zone as the console names it: "UTC", or "Asia/Kolkata, UTC+05:30" (its offset at `atMs`). */
export function zoneLabel(timeZone: string, atMs = Date.now()): string {
  return timeZone === UTC ? UTC : `${timeZone}, ${formatOffset(zoneOffsetMs(timeZone, Number.isFinite(atMs) ? atMs : Date.now()))}`
}

/**
 * A bound for the From/To boxes: relative as written, an instant in the zone, seconds only when not
 * zero. A bare date from a hand-written link is a UTC day to the service (the whole day for To):
 * as is in UTC, else the instant it stands for.
 */
export function formatBound(bound: string | undefined, timeZone: string, endOfDay = false): string {
  if (!bound) return ''
  if (canonicalRelative(bound) !== null) return bound
  const ms = Date.parse(bound)
  if (Number.isNaN(ms)) return bound
  if (/^\d{4}-\d{2}-\d{2}$/.test(bound)) {
    if (timeZone === UTC) return bound
    return formatBound(new Date(endOfDay ? ms + 86_400_000 - 1 : ms).toISOString(), timeZone)
  }
  return formatLogTime(bound, timeZone).replace(/\.000$/, '').replace(/(\d{2}:\d{2}):00$/, '$1')
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/
const HAS_ZONE = /(Z|[+-]\d{2}:?\d{2})$/i

/** The instant a wall-clock time in the zone is; across a DST change, the later of two readings. */
function wallClockToUtc(timeZone: string, wall: number): number {
  const first = wall - zoneOffsetMs(timeZone, wall)
  return wall - zoneOffsetMs(timeZone, first)
}

/**
 * What the user typed in From or To, for the URL: `now-15m` as is, a date or date-time with a zone
 * (Z, +02:00) as that instant, one without a zone in the chosen zone (a bare date is the start of
 * that day there, or its last millisecond for To). Null when it is none of these.
 */
export function parseBoundInput(text: string, timeZone: string, endOfDay: boolean): string | null {
  const trimmed = text.trim()
  const relative = canonicalRelative(trimmed)
  if (relative !== null) return relative
  if (HAS_ZONE.test(trimmed)) {
    const ms = Date.parse(trimmed.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
    return Number.isNaN(ms) ? null : new Date(ms).toISOString()
  }
  const m = WALL_CLOCK.exec(trimmed)
  if (!m) return null
  const [year, month, day, hour, minute, second, fraction] = m.slice(1).map((v) => (v === undefined ? undefined : Number(v)))
  const ms = fraction === undefined ? 0 : Number(m[7]!.padEnd(3, '0'))
  const wall = Date.UTC(year!, month! - 1, day!, hour ?? 0, minute ?? 0, second ?? 0, ms)
  const check = new Date(wall)
  // Date.UTC rolls 2026-02-31 over into March: a date that does not exist is refused.
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day || (hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 59) return null
  if (hour === undefined && endOfDay) return new Date(wallClockToUtc(timeZone, wall + 86_400_000) - 1).toISOString()
  return new Date(wallClockToUtc(timeZone, wall)).toISOString()
}
