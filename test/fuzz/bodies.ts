import fc from 'fast-check'
import { MAX_BODY_BYTES } from '../../src-main/kit/http/json-body'
import { DRAIN_MAX_BYTES } from '../../src-main/server/listener'
import type { FuzzContext } from './fuzz-server'
import type { JsonSchema } from './operations'

/** A request body: its bytes and a short label for reports (a 9 MiB body is not printed). */
export interface Body {
  bytes: Buffer
  label: string
}

const body = (label: string, bytes: Buffer | string): Body => ({ label, bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes, 'utf8') })

/** Values that reach the handler's own checks (catalog hits and near misses), by property name. */
const KNOWN: Record<string, string[]> = {
  provider: ['deepgram', 'assemblyai', 'openai', 'google', 'azure'],
  model: ['nova-3', 'nova-2', 'whisper-1', 'best'],
  provider_type: ['stt', 'STT', 'tts'],
}

/** An object the schema accepts: known values or short strings, null where the schema allows it. */
function validObject(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {}
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const nullable = Array.isArray(prop.type) && prop.type.includes('null')
    fields[name] = fc.oneof(fc.constantFrom(...(KNOWN[name] ?? ['x'])), fc.string({ maxLength: prop.maxLength ?? 20 }), ...(nullable ? [fc.constant(null)] : []))
  }
  return fc.record(fields, { requiredKeys: schema.required ?? [] })
}

/** The valid object with one field broken: wrong type, over its length, or a prototype key. */
function mutatedObject(schema: JsonSchema): fc.Arbitrary<string> {
  const names = Object.keys(schema.properties ?? {})
  const wrong = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant('x'.repeat(256)), fc.constant('\u0000\ud800'))
  return fc
    .tuple(validObject(schema), fc.constantFrom(...names, '__proto__', 'constructor', ''), wrong)
    .map(([object, name, value]) => JSON.stringify({ ...object, [name]: value }))
}

const BROKEN_JSON = [
  '{"provider": "deepgram"', '{"provider": "deepgram",}', "{'provider': 'deepgram'}", '{"provider": NaN}', '{"a": 1e999999}',
  '[1, 2', '"unterminated', '{"a": "\\u12"}', '{"a": "\\x41"}', '{,}', '}{', 'nul', 'tru', '01', '{"a":1}{"b":2}', '\u0000{}',
  '{"a": "' + '\\'.repeat(3) + '"}', '\t\r\n ', '﻿{"provider":"deepgram","model":"nova-3"}',
]

/** Bytes that are not valid UTF-8, or UTF-8 of the wrong kind: overlong, surrogates, truncated. */
const ODD_BYTES: Array<[string, number[]]> = [
  ['invalid utf-8 0xff', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]],
  ['overlong slash', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d]],
  ['overlong NUL', [0x7b, 0x22, 0xc0, 0x80, 0x22, 0x3a, 0x31, 0x7d]],
  ['encoded surrogate', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d]],
  ['truncated sequence', [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe2, 0x82]],
  ['utf-16le object', [...Buffer.from('{"provider":"deepgram","model":"nova-3"}', 'utf16le')]],
  ['utf-16 with BOM', [0xff, 0xfe, ...Buffer.from('{}', 'utf16le')]],
  ['NUL bytes', [0, 0, 0, 0]],
]

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)

/** Deep nesting past the guard's 64 levels, up to 10,000 arrays or objects. */
const deepBody: fc.Arbitrary<Body> = fc
  .tuple(fc.constantFrom(65, 1000, 10_000), fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}'], ['[{"a":', '}]']))
  .map(([depth, [open, close]]) => body(`${depth} nested ${open}`, nested(depth, open, close)))

/** Just over the 1 MiB limit, and over the listener's 8 MiB drain bound (which closes the connection). */
const oversizeBody: fc.Arbitrary<Body> = fc
  .constantFrom(MAX_BODY_BYTES + 1, 2 * MAX_BODY_BYTES, DRAIN_MAX_BYTES + 1024)
  .map((size) => body(`${size} bytes`, `{"provider":"${'x'.repeat(size - 16)}"}`))

const hostileBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...BROKEN_JSON).map((text) => body(`broken ${JSON.stringify(text.slice(0, 30))}`, text)) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_BYTES).map(([label, bytes]) => body(label, Buffer.from(bytes))) },
  { weight: 2, arbitrary: deepBody },
  { weight: 1, arbitrary: oversizeBody },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => body('other JSON', JSON.stringify(value) ?? 'null')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => body('random bytes', Buffer.from(bytes))) },
  { weight: 1, arbitrary: fc.constant(body('empty', '')) },
)

/** A JSON operation's body: valid, one field broken, or hostile. */
export function jsonBody(schema: JsonSchema): fc.Arbitrary<Body> {
  return fc.oneof(
    { weight: 3, arbitrary: validObject(schema).map((o) => body('valid', JSON.stringify(o))) },
    { weight: 2, arbitrary: mutatedObject(schema).map((text) => body('mutated', text)) },
    { weight: 4, arbitrary: hostileBody },
  )
}

/** Call log records as an import reads them, some of them broken. */
function logRecords(ctx: FuzzContext): fc.Arbitrary<Array<Record<string, unknown>>> {
  const record = fc.record({
    id: fc.uuid(),
    tenant_id: fc.oneof(fc.constantFrom(...ctx.ids.tenants), fc.string({ maxLength: 5 })),
    log_type: fc.constantFrom('call', 'sip', 'Bad Type', ''),
    log_level: fc.constantFrom('info', 'ERROR', 'loud'),
    message: fc.string({ unit: 'binary', maxLength: 30 }),
    timestamp: fc.constantFrom('2026-11-19T10:00:00.000Z', '2026-11-19T10:00:00+02:00', 'not a time'),
    details: fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })),
  })
  return fc.array(record, { maxLength: 5 })
}

const csvOf = (records: Array<Record<string, unknown>>) =>
  ['id,tenant_id,log_type,log_level,message,timestamp,details', ...records.map((r) => Object.values(r).map((v) => JSON.stringify(typeof v === 'string' ? v : JSON.stringify(v))).join(','))].join('\n')

/** An import's file: NDJSON, a JSON array or CSV of a few records, or a hostile body. */
export function fileBody(ctx: FuzzContext): fc.Arbitrary<Body> {
  const file = fc.tuple(logRecords(ctx), fc.constantFrom('ndjson', 'json', 'csv')).map(([records, format]) =>
    body(`${records.length} records as ${format}`, format === 'ndjson' ? records.map((r) => JSON.stringify(r)).join('\n') : format === 'json' ? JSON.stringify(records) : csvOf(records)),
  )
  return fc.oneof({ weight: 3, arbitrary: file }, { weight: 2, arbitrary: hostileBody })
}

/** A body on an operation that takes none (a GET with a body, say): small, or now and then large. */
export const strayBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...BROKEN_JSON).map((text) => body('stray text', text)) },
  { weight: 1, arbitrary: oversizeBody },
)
