/**
 * Time ranges of the call log view. A bound is either an instant (ISO 8601, as stored) or relative
 * to the moment of the query: `now`, `now-15m`, `now-7d` (Grafana's notation). A relative bound
 * stays relative in the URL, so a permalink to "the last 15 minutes" means the last 15 minutes
 * when it is opened; the service resolves it (`resolveTimeBound`) for each read, the console's and
 * the exports' alike (modules/call-logs/call-logs.search.ts, resolveFilter).
 */

/** A duration as `@last` and relative bounds write it: a count and a unit (s, m, h, d, w). */
export const DURATION = /^(\d{1,6})(s|m|h|d|w)$/
export const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }

/** Milliseconds of a duration (`15m`), or null when it is not one (or is zero). */
export function durationMs(text: string): number | null {
  const match = DURATION.exec(text)
  if (!match || Number(match[1]) === 0) return null
  return Number(match[1]) * UNIT_MS[match[2]!]!
}

const RELATIVE = /^now(?:\s*-\s*(\d{1,6}\s*[smhdw]))?$/i

/** How far back from now a relative bound is (0 for `now`), or null when it is not relative. */
export function relativeOffsetMs(text: string | undefined): number | null {
  const match = text === undefined ? null : RELATIVE.exec(text.trim())
  if (!match) return null
  if (!match[1]) return 0
  return durationMs(match[1].replace(/\s+/g, '').toLowerCase())
}

export const isRelativeBound = (text: string | undefined): boolean => relativeOffsetMs(text) !== null

/** The canonical text of a relative bound (`NOW - 15M` → `now-15m`), or null when it is not one. */
export function canonicalRelative(text: string): string | null {
  const match = RELATIVE.exec(text.trim())
  if (!match || relativeOffsetMs(text) === null) return null
  return match[1] ? `now-${match[1].replace(/\s+/g, '').toLowerCase()}` : 'now'
}

/** A bound as an instant: relative ones from `now`, instants as they are. */
export function resolveTimeBound(text: string, now: Date): string {
  const offset = relativeOffsetMs(text)
  return offset === null ? text : new Date(now.getTime() - offset).toISOString()
}

/** The presets of the explorer's time picker: each is `from=now-<value>` with no `to`. */
export const TIME_PRESETS = [
  { value: '15m', label: 'Last 15 minutes', short: '15 min' },
  { value: '1h', label: 'Last 1 hour', short: '1 h' },
  { value: '24h', label: 'Last 24 hours', short: '24 h' },
  { value: '7d', label: 'Last 7 days', short: '7 d' },
  { value: '30d', label: 'Last 30 days', short: '30 d' },
] as const
export type TimePreset = (typeof TIME_PRESETS)[number]['value']

/** The preset a range is, if it is one (`from=now-24h`, no `to`); null otherwise. */
export function presetOf(range: { from?: string; to?: string }): TimePreset | null {
  if (range.to !== undefined && canonicalRelative(range.to) !== 'now') return null
  const from = range.from === undefined ? null : canonicalRelative(range.from)
  return TIME_PRESETS.find((p) => from === `now-${p.value}`)?.value ?? null
}

/** A short text for a duration in ms, in the largest whole unit (`48h` → `2d`). */
export function formatDuration(ms: number): string {
  for (const unit of ['w', 'd', 'h', 'm', 's'] as const) {
    if (ms % UNIT_MS[unit]! === 0 && ms >= UNIT_MS[unit]!) return `${ms / UNIT_MS[unit]!}${unit}`
  }
  return `${Math.max(1, Math.round(ms / 1000))}s`
}

/**
 * The range twice as long around the same centre. A range that ends now (`from=now-24h`) stays
 * relative and ends now: its start goes twice as far back (`now-48h`), as nothing after now exists.
 */
export function zoomOut(range: { from?: string; to?: string }, shown: { from: string; to: string }): { from: string; to?: string } {
  const back = relativeOffsetMs(range.from)
  if (back !== null && back > 0 && (range.to === undefined || relativeOffsetMs(range.to) === 0)) {
    return { from: `now-${formatDuration(2 * back)}`, to: undefined }
  }
  const start = Date.parse(shown.from)
  const end = Date.parse(shown.to)
  const half = Math.max(60_000, end - start) / 2
  const centre = (start + end) / 2
  return { from: new Date(Math.round(centre - 2 * half)).toISOString(), to: new Date(Math.round(centre + 2 * half)).toISOString() }
}
