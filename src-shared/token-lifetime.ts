/*
 * How long an API token lives, in the words `callscope token create --expires` and the console's
 * Settings page both take, so the two accept the same values: `never`; a whole number of hours,
 * days, weeks or years (`12h`, `30d`, `2w`, `1y`; a year is 365 days, so it never depends on the
 * calendar); or the ISO 8601 date or date-time the token expires at (`2027-01-31` is the start of
 * that day, UTC; a time without an offset is UTC, as everywhere in the API).
 */

const DURATION = /^(\d{1,6})([hdwy])$/
// Its own small ISO 8601 reader rather than the API's lax query parsing: this grammar stays as
// documented for the CLI whatever the query parameters come to accept.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/i
const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 604_800_000, y: 365 * 86_400_000 } as const
/** The last instant the store's four-digit-year timestamps can hold. */
const LATEST_MS = Date.parse('9999-12-31T23:59:59.999Z')

export const TOKEN_LIFETIME_HELP =
  'Expected "never", a duration such as 12h, 30d, 2w or 1y, or an ISO 8601 date or date-time such as 2027-01-31 or 2027-01-31T09:00:00Z.'

/** An expiry instant (null: never), or why the text is not a lifetime (a sentence without the text). */
export type TokenExpiry = { expiresAt: string | null } | { problem: string }

/** Turns a lifetime into the instant the token expires, counted from `nowMs`. */
export function resolveTokenExpiry(text: string, nowMs: number): TokenExpiry {
  const value = text.trim().toLowerCase()
  if (value === 'never') return { expiresAt: null }
  const duration = DURATION.exec(value)
  if (duration && Number(duration[1]) === 0) return { problem: `A lifetime is at least 1${duration[2]}.` }
  const atMs = duration ? nowMs + Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS] : instantMs(text.trim())
  if (atMs === null) return { problem: TOKEN_LIFETIME_HELP }
  if (atMs <= nowMs) return { problem: 'The expiry must be in the future.' }
  if (atMs > LATEST_MS) return { problem: 'The latest possible expiry is 9999-12-31.' }
  return { expiresAt: new Date(atMs).toISOString() }
}

/** The instant an ISO 8601 date or date-time names, or null when it is not one (2027-02-30 is not). */
function instantMs(text: string): number | null {
  const match = ISO.exec(text)
  if (!match) return null
  const fields = match.slice(1, 7).map((part) => Number(part ?? 0))
  const [year, month, day, hour, minute, second] = fields as [number, number, number, number, number, number]
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number((match[7] ?? '').padEnd(3, '0')))
  const date = new Date(utc)
  // Date.UTC rolls over (February 30th is March 2nd): a changed day or month means a date that does not exist.
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return null
  return utc - offsetMs(match[8])
}

/** `Z`, `+02:00` or `-05:30` in milliseconds east of UTC; none is UTC, as everywhere in the API. */
function offsetMs(zone: string | undefined): number {
  if (!zone || zone.toUpperCase() === 'Z') return 0
  const sign = zone.startsWith('-') ? -1 : 1
  return sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000
}
