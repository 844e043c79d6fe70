import fc from 'fast-check'
import type { FuzzContext } from './fuzz-server'
import type { JsonSchema, Param } from './operations'

/**
 * Values of path segments and query parameters, as they go on the wire (already percent-encoded),
 * so the generators control the encoding: NUL, `/` and invalid UTF-8 are sent encoded on purpose.
 */

/** UTF-8 bytes, percent-encoded: unlike encodeURIComponent it takes lone surrogates (as U+FFFD). */
export function percentEncode(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte)
    out += /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** Encodings a decoder can trip on: NUL, encoded and overlong `/`, surrogates, truncated sequences. */
const ODD_ENCODINGS = [
  '%00', 'a%00b', '%2F', '%2f', 'a%2Fb', '%2e%2e', '%2E%2E%2F', '..%2F..%2Fetc%2Fpasswd', '%C0%AF', '%C0%80',
  '%E0%80%AF', '%F0%80%80%AF', '%ED%A0%80', '%ED%BF%BF', '%FF', '%FE%FF', '%C3', '%F4%90%80%80', '%', '%Z',
  '%%', '%u0041', '%25', '%252F', '%0D%0A', '%0D%0ASet-Cookie:%20x=1', '%EF%BB%BF', '%E2%80%AE', '+', '%20',
  '%09', '%7F', '%C2%A0', '\xff', '\xc3', '\xc0\xaf', '\xe9t\xe9',
]

const NUMBERS = ['-1', '0', '1', '-0', '1e309', 'NaN', 'Infinity', '0x10', '1.5', '2.0', '00001', '9007199254740993', '99999999999999999999999', '%201', '1%20']
const SHAPES = ['', '.', '..', '[]', '{}', 'null', 'true', 'undefined', "'%20OR%201=1--", '%22%20OR%201=1%20--', '__proto__', 'constructor', '%3Cscript%3E']
const DATES = [
  '2026-11-01', '2026-11-20T12:00:00Z', '2026-02-30', '2026-13-01', '0000-00-00', '9999-12-31T23:59:59Z', '2026-11-01T25:00:00Z',
  '2026-11-01T00:00:00%2B99:00', '%2B275760-09-13', '-000001-01-01', '1970-01-01', '2026-11-01T09:30:00.123456789Z', '20261101',
  '2026-11-01T09:30', '2026-W45', '2026-305', '1e13', '2026-11-01%20', 'yesterday',
]

const uuidVariants = (uuid: string) => [uuid.toUpperCase(), `%7B${uuid}%7D`, uuid.replace(/-/g, ''), `urn:uuid:${uuid}`, `${uuid}x`, `${uuid}%00`, `${uuid}%2F..`, uuid.slice(1)]

export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ODD_ENCODINGS, ...NUMBERS, ...SHAPES, ...DATES) },
  { weight: 2, arbitrary: fc.uuid().chain((u) => fc.constantFrom(...uuidVariants(u))) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map(percentEncode) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom(300, 4000, 20_000, 70_000).map((n) => 'a'.repeat(n)) },
  { weight: 1, arbitrary: fc.array(fc.constantFrom(...ODD_ENCODINGS), { minLength: 2, maxLength: 6 }).map((parts) => parts.join('')) },
)

/** A value the schema accepts, or one at its edges: reaches the handlers, not just the validator. */
export function validValue(schema: JsonSchema, ctx: FuzzContext): fc.Arbitrary<string> {
  if (schema.enum) return fc.constantFrom(...schema.enum.map((v) => percentEncode(String(v))))
  if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...ctx.ids.agents, ...ctx.ids.tenants, ...ctx.ids.squads), fc.uuid())
  if (schema.format === 'call-id') return fc.constantFrom(...ctx.ids.calls, 'CA0000')
  if (schema.format === 'trace-id') return fc.constantFrom(...ctx.ids.traces, 'nope')
  if (schema.format === 'session-id') return fc.constantFrom(...ctx.ids.sessions, 'nope')
  if (schema.type === 'integer') return integerValue(schema)
  if (schema.type === 'boolean') return fc.constantFrom('true', 'false', '1', '0', 'yes', 'off', 'TRUE')
  if (schema.examples) return fc.constantFrom(...schema.examples.map((v) => percentEncode(String(v))))
  return fc.string({ maxLength: 20 }).map(percentEncode)
}

function integerValue(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minimum ?? -1000
  const max = schema.maximum ?? min + 1000
  return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min - 1, max + 1, min, max)).map(String)
}

/** A param's value: usually one its schema accepts, often a hostile one. */
export function paramValue(param: Param, ctx: FuzzContext, uuidFor?: readonly string[]): fc.Arbitrary<string> {
  const valid = uuidFor && uuidFor.length > 0 ? fc.oneof(fc.constantFrom(...uuidFor), validValue(param.schema, ctx)) : validValue(param.schema, ctx)
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostileValue })
}
