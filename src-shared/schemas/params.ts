import { DATETIME_MESSAGES, type LaxInstant, parseLaxDateTime } from './lax-datetime'
import { INT_PROBLEM_MESSAGES, parseLaxInt } from './lax-int'
import { canonicalUuid, uuidProblem } from './lax-uuid'
import { z } from './zod'

/**
 * Query and path parameter schemas that parse like FastAPI/pydantic: the same accepted inputs,
 * and failures that map to the same pydantic error types (see the HTTP layer's translation).
 */

/** A repeated query key arrives as an array; FastAPI (Starlette's `QueryParams.get`) takes the last. */
const lastValue = (value: unknown): unknown => (Array.isArray(value) ? value.at(-1) : value)

/**
 * A zod preprocess step for a query string parsed as pydantic's lax mode does: `parse` returns the
 * value or undefined, and undefined is an error of pydantic's `type` with its message.
 */
function laxText<T>(parse: (text: string) => T | undefined, type: string, message: string) {
  return (given: unknown, ctx: z.RefinementCtx): unknown => {
    const value = lastValue(given)
    if (typeof value !== 'string') return value
    const parsed = parse(value)
    if (parsed !== undefined) return parsed
    ctx.addIssue({ code: 'custom', input: value, message, params: { type } })
    return z.NEVER
  }
}

export interface IntegerParamOptions {
  min?: number
  max?: number
  default: number
  description?: string
}

/**
 * An integer from a query string, read as pydantic's lax mode reads one (lax-int.ts): " 42 ",
 * "+42", "042", "4_2" and "42.0" are 42; "4.5", "1e3" and "" are `int_parsing` errors. Integers
 * beyond JavaScript's exact range (±2^53 − 1) are refused as past the nearest bound: pydantic
 * would take them, but they could not be echoed or used exactly, so that range is the default
 * bound (and shown as such in the OpenAPI document).
 */
export function integerParam(options: IntegerParamOptions) {
  const { min, max, read } = laxIntegerReader(options)
  return z
    .preprocess(read, z.number().int().min(min).max(max).default(options.default))
    .openapi({ description: options.description })
}

/** The same, optional: undefined when not given. */
export function optionalIntegerParam(options: Omit<IntegerParamOptions, 'default'>) {
  const { min, max, read } = laxIntegerReader(options)
  return z.preprocess(read, z.number().int().min(min).max(max).optional()).openapi({ description: options.description })
}

function laxIntegerReader(options: { min?: number; max?: number }) {
  const min = options.min ?? Number.MIN_SAFE_INTEGER
  const max = options.max ?? Number.MAX_SAFE_INTEGER
  const read = (given: unknown, ctx: z.RefinementCtx): unknown => {
    const value = lastValue(given)
    if (typeof value !== 'string') return value
    const parsed = parseLaxInt(value)
    if (typeof parsed === 'string') return refuse(ctx, value, parsed, INT_PROBLEM_MESSAGES[parsed])
    // Beyond the safe range zod's int check would add an issue of its own: pydantic names one bound.
    if (parsed > BigInt(max)) return refuse(ctx, value, 'less_than_equal', `Input should be less than or equal to ${max}`, { le: max })
    if (parsed < BigInt(min)) return refuse(ctx, value, 'greater_than_equal', `Input should be greater than or equal to ${min}`, { ge: min })
    return Number(parsed)
  }
  return { min, max, read }
}

function refuse(ctx: z.RefinementCtx, input: string, type: string, message: string, context?: Record<string, unknown>) {
  ctx.addIssue({ code: 'custom', input, message, params: { type, ...(context ? { ctx: context } : {}) } })
  return z.NEVER
}

const TRUE_TEXT = new Set(['1', 'true', 't', 'yes', 'y', 'on'])
const FALSE_TEXT = new Set(['0', 'false', 'f', 'no', 'n', 'off'])

/** A boolean query parameter parsed as pydantic does (`true`, `1`, `yes`, `on`, ... case-insensitively). */
export function booleanParam(description: string) {
  return z
    .preprocess(
      laxText((value) => {
        const text = value.trim().toLowerCase()
        return TRUE_TEXT.has(text) ? true : FALSE_TEXT.has(text) ? false : undefined
      }, 'bool_parsing', 'Input should be a valid boolean, unable to interpret input'),
      z.boolean().optional(),
    )
    .openapi({ type: 'boolean', description })
}

const STORE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|z|[+-]\d{2}:?\d{2})?$/

const digitsAt = (text: string, from: number, count: number): number => {
  let value = 0
  for (let i = from; i < from + count; i++) value = value * 10 + text.charCodeAt(i) - 48
  return value
}

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/**
 * A real instant written exactly as the store writes one (toISOString): no normalising needed.
 * dateProblem checks the same ranges, but through its regexes costs about 0.9 µs against 0.06.
 */
function isStoreInstant(text: string): boolean {
  if (!STORE_FORMAT.test(text)) return false
  const month = digitsAt(text, 5, 2)
  const day = digitsAt(text, 8, 2)
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(digitsAt(text, 0, 4), month) &&
    digitsAt(text, 11, 2) < 24 && digitsAt(text, 14, 2) < 60 && digitsAt(text, 17, 2) < 60
  )
}

/** Why a text is not an ISO 8601 date or date-time, in pydantic's words; null when it is one. */
function dateProblem(text: string): string | null {
  const date = DATE_ONLY.exec(text) ?? DATE_TIME.exec(text)
  if (!date) return text.length < 10 ? 'input is too short' : 'invalid character in date or time'
  const [, y, m, d] = date.map(Number) as [number, number, number, number]
  if (m < 1 || m > 12) return 'month value is outside expected range of 1-12'
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
  if (d < 1 || d > days) return 'day value is outside expected range'
  const time = DATE_TIME.exec(text)
  if (time && (Number(time[4]) > 23 || Number(time[5]) > 59 || Number(time[6] ?? 0) > 59)) {
    return 'invalid time: hour, minute or second out of range'
  }
  return null
}

/**
 * Parses an ISO 8601 date or date-time to a UTC instant in the store's format. A time without an
 * offset is UTC. A bare date is the start of that day, or with `endOfDay` the last millisecond
 * of it, so `end_date=2026-11-20` includes the whole 20th.
 */
export function parseInstant(text: string, endOfDay = false): string | null {
  // Most inputs (every record the API or an export writes) are already in the store's format:
  // checking its fields' ranges costs a fraction of the general path (an import does it 100,000
  // times a second). Anything else takes the general path.
  if (isStoreInstant(text)) return text
  if (dateProblem(text) !== null) return null
  if (DATE_ONLY.test(text)) {
    const start = Date.parse(`${text}T00:00:00.000Z`)
    return new Date(endOfDay ? start + 86_400_000 - 1 : start).toISOString()
  }
  let normalized = text.replace(' ', 'T').replace(/z$/, 'Z')
  if (!/(Z|[+-]\d{2}:?\d{2})$/.test(normalized)) normalized += 'Z'
  normalized = normalized.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')
  const ms = Date.parse(normalized)
  return Number.isNaN(ms) ? null : new Date(ms).toISOString()
}

/**
 * The last instant the store's text form can hold. 9999-12-31T23:59:59-23:59 is in year 10000 in
 * UTC, whose ISO text (`+010000-…`) would sort before every stored timestamp.
 */
const LAST_STORE_MS = 253_402_300_799_999

/**
 * A query bound as a store instant. Store timestamps have millisecond precision, so a start bound
 * with a sub-millisecond part rounds up and an end bound rounds down: the same records match as
 * at full precision. A bare date as an end bound is the last millisecond of that day.
 */
function boundText(instant: LaxInstant, isEnd: boolean): string {
  let ms = instant.ms
  if (isEnd && instant.dateOnly) ms += 86_400_000 - 1
  else if (!isEnd && instant.extraMicros > 0) ms += 1
  return new Date(Math.min(LAST_STORE_MS, ms)).toISOString()
}

/**
 * An optional date or date-time query parameter read as pydantic reads a `datetime` (lax-datetime.ts:
 * RFC 3339 forms, Unix timestamps, bare dates), normalised to a UTC instant in the store's format;
 * a time without an offset is UTC. `endOfDay`: the parameter is an end bound.
 */
export function instantParam(description: string, endOfDay = false) {
  const instant = z.string().transform((text, ctx) => {
    const parsed = parseLaxDateTime(text)
    if (!('problem' in parsed)) return boundText(parsed, endOfDay)
    ctx.addIssue({
      code: 'custom',
      message: `${DATETIME_MESSAGES[parsed.type]}, ${parsed.problem}`,
      params: { type: parsed.type, ctx: { error: parsed.problem } },
    })
    return z.NEVER
  })
  return z
    .preprocess(lastValue, instant)
    .optional()
    .openapi({
      type: 'string',
      description: `${description}. ISO 8601 date (2026-11-01) or date-time (2026-11-01T09:30:00Z), or a Unix timestamp (seconds, or milliseconds above 2e10).`,
      examples: ['2026-11-01', '2026-11-01T09:30:00Z'],
    })
}

/**
 * A UUID read as pydantic reads one (lax-uuid.ts: any case, 32 bare digits, braces, `urn:uuid:`,
 * any version), normalised to lower-case hyphenated before any lookup or filter sees it. Still a
 * string schema, so it composes (`.optional()`, `.nullable()`) and documents as `format: uuid`.
 */
export const laxUuid = () =>
  z
    .string()
    .superRefine((text, ctx) => {
      if (canonicalUuid(text) !== null) return
      const error = uuidProblem(text)
      ctx.addIssue({ code: 'custom', input: text, message: `Input should be a valid UUID, ${error}`, params: { type: 'uuid_parsing', ctx: { error } } })
    })
    .overwrite((text) => canonicalUuid(text) ?? text)
    .openapi({ format: 'uuid' })

export const uuidParam = (description: string) => laxUuid().openapi({ description })

/** Longest id a path takes where the spec gives no format. */
export const MAX_ID_LENGTH = 255

/**
 * An id the spec gives no format for (`agent_id`, `squad_id` in paths): any non-empty text of up to
 * MAX_ID_LENGTH characters, as a FastAPI `str` parameter takes it, so a real backend's own ids
 * (`agent_7`, `sq-eu`) work. A UUID in any of pydantic's spellings is normalised as laxUuid does,
 * so it finds the lower-case id the store keeps.
 */
export const idParam = (description: string) =>
  z
    .string()
    .min(1, 'String should have at least 1 character')
    .max(MAX_ID_LENGTH, `String should have at most ${MAX_ID_LENGTH} characters`)
    .overwrite((text) => canonicalUuid(text) ?? text)
    .openapi({ description })

/** An optional UUID query parameter (a repeated key: the last value, as FastAPI reads it). */
export const uuidQueryParam = (description: string) => z.preprocess(lastValue, laxUuid()).optional().openapi({ description })

/** What a query with an optional start and end date carries once parsed. */
export interface DateRangeQuery {
  start_date?: string
  end_date?: string
}

/**
 * The cross-field rule of `start_date`/`end_date` queries, for `.superRefine()`: an end before the
 * start is a pydantic `value_error` on `end_date`. Both values are already normalised UTC instants,
 * so text order is time order.
 */
export function endNotBeforeStart<T extends DateRangeQuery>(query: T, ctx: z.core.$RefinementCtx<T>): void {
  if (query.start_date && query.end_date && query.start_date > query.end_date) {
    ctx.addIssue({
      code: 'custom',
      path: ['end_date'],
      input: query.end_date,
      message: 'Value error, end_date must not be before start_date',
      params: { type: 'value_error', ctx: { error: 'end_date must not be before start_date' } },
    })
  }
}

/** Repeatable (`?status=failed&status=completed`) or comma-separated. */
export const listParam = (description: string) =>
  z
    .preprocess((v) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(',')).map((s) => s.trim()).filter(Boolean)), z.array(z.string().min(1).max(100)).max(20).optional())
    .openapi({ description })
