/**
 * Date-time text read as pydantic v2 reads a `datetime` in lax mode (pydantic-core 2.41 over
 * speedate 0.17), ported byte for byte since speedate reads bytes:
 * - RFC 3339 / ISO 8601: `YYYY-MM-DD`, a `T`, `t`, `_` or space, `HH:MM`, optional `:SS`, optional
 *   fraction after `.` or `,` (any number of digits, cut to microseconds), optional `Z`/`z` or
 *   `±HH:MM` / `±HHMM` (also U+2212 minus), less than 24 h. No offset: naive (Callscope: UTC).
 * - a Unix timestamp: an integer or decimal number, seconds when |n| ≤ 2e10, milliseconds above.
 * - failing those, a bare date `YYYY-MM-DD` (midnight).
 * A refusal is `datetime_from_date_parsing` with the reason the date parser gives for the text,
 * or `datetime_parsing` for year 0, which speedate reads but Python's datetime cannot hold.
 * Checked against pydantic 2.13 (pydantic-core 2.46) on thousands of generated texts.
 */

/** A parsed instant: epoch milliseconds and the microseconds beyond them (0–999). */
export interface LaxInstant {
  ms: number
  extraMicros: number
  /** A bare `YYYY-MM-DD` (pydantic's date fallback), which an end bound reads as the whole day. */
  dateOnly: boolean
}

type Failure = { problem: string }

/** A refused text: pydantic's error type and its reason (`ctx.error`). */
export interface LaxDateTimeFailure {
  type: 'datetime_from_date_parsing' | 'datetime_parsing'
  problem: string
}

export const DATETIME_MESSAGES: Record<LaxDateTimeFailure['type'], string> = {
  datetime_from_date_parsing: 'Input should be a valid datetime or date',
  datetime_parsing: 'Input should be a valid datetime',
}

/** speedate's success that Python then refuses: datetime.MINYEAR is 1. */
const YEAR_0: Failure = { problem: 'year 0 is out of range' }

const PROBLEMS = {
  tooShort: 'input is too short',
  extra: 'unexpected extra characters at the end of the input',
  dateSep: 'invalid date separator, expected `-`',
  year: 'invalid character in year',
  month: 'invalid character in month',
  day: 'invalid character in day',
  monthRange: 'month value is outside expected range of 1-12',
  dayRange: 'day value is outside expected range',
  tooSmall: 'dates before 0000 are not supported as unix timestamps',
  tooLarge: 'dates after 9999 are not supported as unix timestamps',
} as const

const MS_WATERSHED = 20_000_000_000
const UNIX_0000 = -62_167_219_200
const UNIX_0001 = -62_135_596_800
const UNIX_9999 = 253_402_300_799
const encoder = new TextEncoder()

const digitAt = (b: Uint8Array, i: number): number | null => {
  const c = b[i]
  return c !== undefined && c >= 48 && c <= 57 ? c - 48 : null
}

/** speedate `Date::parse_bytes_partial`: the first 10 bytes as a calendar date. */
function parseDatePart(b: Uint8Array): { year: number; month: number; day: number } | Failure {
  if (b.length < 10) return { problem: PROBLEMS.tooShort }
  const fields: Array<[number[], string]> = [[[0, 1, 2, 3], PROBLEMS.year], [[5, 6], PROBLEMS.month], [[8, 9], PROBLEMS.day]]
  const values: number[] = []
  for (const [positions, problem] of fields) {
    let value = 0
    for (const p of positions) {
      const d = digitAt(b, p)
      if (d === null) return { problem }
      value = value * 10 + d
    }
    values.push(value)
    if (positions[0] !== 8 && b[positions.at(-1)! + 1] !== 45) return { problem: PROBLEMS.dateSep }
  }
  const [year, month, day] = values as [number, number, number]
  if (month < 1 || month > 12) return { problem: PROBLEMS.monthRange }
  if (day < 1 || day > daysInMonth(year, month)) return { problem: PROBLEMS.dayRange }
  return { year, month, day }
}

const isLeap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31)

/** Days from 1970-01-01 to a proleptic Gregorian date (Date.UTC would read years 0–99 as 19xx). */
function epochDays(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  return era * 146_097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719_468
}

/** speedate `PureTime::parse` plus `Time::parse_bytes_offset`, from byte 11; null when refused. */
function parseTimePart(b: Uint8Array): { seconds: number; micros: number; offset: number } | null {
  const two = (i: number) => {
    const hi = digitAt(b, i)
    const lo = digitAt(b, i + 1)
    return hi === null || lo === null ? null : hi * 10 + lo
  }
  const hour = two(11)
  const minute = two(14)
  if (b.length < 16 || hour === null || b[13] !== 58 || minute === null || hour > 23 || minute > 59) return null
  let second = 0
  let micros = 0
  let at = 16
  if (b[16] === 58) {
    const s = two(17)
    if (s === null || s > 59) return null
    second = s
    at = 19
    if (b[19] === 46 || b[19] === 44) {
      let digits = 0
      while (digitAt(b, 20 + digits) !== null) {
        if (digits < 6) micros = micros * 10 + digitAt(b, 20 + digits)!
        digits++
      }
      if (digits === 0) return null
      micros *= 10 ** Math.max(0, 6 - digits)
      at = 20 + digits
    }
  }
  const offset = parseOffset(b, at)
  return offset === null ? null : { seconds: hour * 3600 + minute * 60 + second, micros, offset }
}

/** The UTC offset in seconds from byte `at` to the end (0 when there is none); null when refused. */
function parseOffset(b: Uint8Array, at: number): number | null {
  if (at === b.length) return 0
  if (b[at] === 90 || b[at] === 122) return at + 1 === b.length ? 0 : null
  // U+2212 MINUS SIGN, which ISO 8601 allows, is three bytes: the digits start two bytes later.
  const minusSign = b[at] === 0xe2 && b[at + 1] === 0x88 && b[at + 2] === 0x92
  if (b[at] !== 43 && b[at] !== 45 && !minusSign) return null
  const sign = b[at] === 43 ? 1 : -1
  if (minusSign) at += 2
  const h1 = digitAt(b, at + 1)
  const h2 = digitAt(b, at + 2)
  const colon = b[at + 3] === 58 ? 1 : 0
  const m1 = digitAt(b, at + 3 + colon)
  const m2 = digitAt(b, at + 4 + colon)
  if (h1 === null || h2 === null || m1 === null || m2 === null || m1 > 5) return null
  const seconds = (h1 * 10 + h2) * 3600 + (m1 * 10 + m2) * 60
  return seconds < 86_400 && at + 5 + colon === b.length ? sign * seconds : null
}

/** speedate `DateTime::parse_bytes_rfc3339_with_config`. */
function parseRfc3339(b: Uint8Array): LaxInstant | Failure | null {
  const date = parseDatePart(b)
  if ('problem' in date || ![84, 116, 32, 95].includes(b[10] ?? -1)) return null
  const time = parseTimePart(b)
  if (time === null) return null
  if (date.year === 0) return YEAR_0
  const seconds = epochDays(date.year, date.month, date.day) * 86_400 + time.seconds - time.offset
  return { ms: seconds * 1000 + Math.floor(time.micros / 1000), extraMicros: time.micros % 1000, dateOnly: false }
}

const I64_MAX = 2n ** 63n - 1n

/** speedate reads digits into a wrapping 64-bit integer and gives up when it turns negative. */
function overflowsAsSpeedate(digits: string): boolean {
  let value = 0n
  for (const digit of digits) {
    value = BigInt.asIntN(64, value * 10n + BigInt(digit))
    if (value < 0n) return true
  }
  return false
}

/**
 * speedate's integer reading (`int_parse_bytes`): a sign, then ASCII digits only, the magnitude
 * within 63 bits. Some longer numbers wrap round without turning negative (2^64 + 1 reads as 1)
 * and speedate takes them; Callscope refuses those too, as the numbers they are.
 */
function integerText(text: string): bigint | null {
  if (!/^[+-]?\d+$/.test(text) || overflowsAsSpeedate(text.replace(/^[+-]/, ''))) return null
  const value = BigInt(text)
  return value > I64_MAX || value < -I64_MAX ? null : value
}

/** speedate `timestamp_watershed` and `Date::from_timestamp_calc`'s range, as seconds and micros. */
function fromTimestamp(seconds: number, micros: number): LaxInstant | Failure {
  if (Math.abs(seconds) > MS_WATERSHED) {
    micros += (((seconds % 1000) + 1000) % 1000) * 1000
    seconds = Math.floor(seconds / 1000)
  }
  seconds += Math.floor(micros / 1_000_000)
  micros %= 1_000_000
  if (seconds < UNIX_0000) return { problem: PROBLEMS.tooSmall }
  if (seconds > UNIX_9999) return { problem: PROBLEMS.tooLarge }
  if (seconds < UNIX_0001) return YEAR_0
  return { ms: seconds * 1000 + Math.floor(micros / 1000), extraMicros: micros % 1000, dateOnly: false }
}

/** speedate's number fallback (`float_parse_bytes`): an integer, or a decimal whose integer part ends at a `.`. */
function parseTimestamp(text: string): LaxInstant | Failure | null {
  const integer = integerText(text)
  if (integer !== null) return fromTimestamp(Number(integer), 0)
  if (/^[+-]?\d+$/.test(text)) return null
  const decimal = /^[+-]?(\d*)\.(\d*)(?:[eE][+-]?\d+)?$/.exec(text)
  if (!decimal || decimal[1]! + decimal[2]! === '' || overflowsAsSpeedate(decimal[1]!)) return null
  const value = Number(text)
  const normalized = Math.abs(value) > MS_WATERSHED ? value / 1000 : value
  const seconds = Math.floor(normalized)
  if (!Number.isFinite(seconds)) return { problem: seconds > 0 ? PROBLEMS.tooLarge : PROBLEMS.tooSmall }
  return fromTimestamp(seconds, Math.round((normalized - seconds) * 1_000_000))
}

/** speedate `Date::parse_bytes_with_config`: the date fallback, whose reason a refusal reports. */
function parseDateFallback(text: string, b: Uint8Array): LaxInstant | Failure {
  const date = parseDatePart(b)
  if (!('problem' in date) && b.length === 10) {
    return date.year === 0 ? YEAR_0 : { ms: epochDays(date.year, date.month, date.day) * 86_400_000, extraMicros: 0, dateOnly: true }
  }
  // An integer gets here only out of range, and the date reading refuses it for the same reason.
  const instant = integerText(text) === null ? null : parseTimestamp(text)
  if (instant !== null && 'problem' in instant) return instant
  return { problem: 'problem' in date ? date.problem : PROBLEMS.extra }
}

/** A date-time as pydantic reads one, or pydantic's error type and reason refusing it. */
export function parseLaxDateTime(text: string): LaxInstant | LaxDateTimeFailure {
  const bytes = encoder.encode(text)
  const first = parseRfc3339(bytes) ?? parseTimestamp(text)
  // Only where speedate itself fails does pydantic fall back to reading a date.
  const result = first !== null && (!('problem' in first) || first === YEAR_0) ? first : parseDateFallback(text, bytes)
  if (!('problem' in result)) return result
  return { type: result === YEAR_0 ? 'datetime_parsing' : 'datetime_from_date_parsing', problem: result.problem }
}
