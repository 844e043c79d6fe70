import { parseInstant } from './schemas/params'

/*
 * How long an API token lives, in the words `callscope token create --expires` and the console's
 * Settings page both take, so the two accept the same values: `never`; a whole number of hours,
 * days, weeks or years (`12h`, `30d`, `2w`, `1y`; a year is 365 days, so it never depends on the
 * calendar); or the ISO 8601 date or date-time the token expires at (`2027-01-31` is the start of
 * that day, UTC; a time without an offset is UTC, as everywhere in the API).
 */

const DURATION = /^(\d{1,6})([hdwy])$/
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

function instantMs(text: string): number | null {
  const instant = parseInstant(text)
  return instant === null ? null : Date.parse(instant)
}
