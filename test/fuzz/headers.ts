import fc from 'fast-check'
import type { FuzzContext } from './fuzz-server'

export type Header = [name: string, value: string]

/** A string's UTF-8 bytes as a latin1 string: node:http writes header values byte for byte. */
export const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

/** Real tokens of each role, the scheme in any case: the authorised code paths are reached. */
export function validAuthorization(ctx: FuzzContext): fc.Arbitrary<string> {
  const { admin, viewer, tenant, env } = ctx.tokens
  return fc
    .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'bEaReR'), fc.constantFrom(admin, admin, viewer, tenant, env), fc.constantFrom(' ', ' ', '  ', '\t'))
    .map(([scheme, token, space]) => `${scheme}${space}${token}`)
}

/** Authorization values a client should never send: empty, scheme alone, other schemes, non-ASCII, huge. */
export function malformedAuthorization(ctx: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '', ' ', 'Bearer', 'Bearer ', 'Bearer  ', 'Basic dXNlcjpwYXNz', 'Digest username="a"', 'Token abc', 'Bearer a b',
      'Bearer, Bearer x', ',', 'Bearer "cs_x"', `Bearer ${ctx.tokens.admin}\u00a0`, `Bearer ${ctx.tokens.admin.slice(0, -1)}`,
      `Bearer ${ctx.tokens.admin.toUpperCase()}`, `${ctx.tokens.admin}`, `Bearer=${ctx.tokens.admin}`, 'Bearer t\u00f6k\u00e9n',
      utf8Bytes('Bearer \u65e5\u672c\u8a9e'), utf8Bytes('\u0411earer x'), 'Bearer \u00ff\u00fe', 'Bearer %00', 'Negotiate YII=',
    ),
    fc.string({ minLength: 1, maxLength: 60 }).map((t) => `Bearer ${t.replace(/[^\t\x20-\x7e]/g, '')}`),
    fc.constantFrom(8_000, 15_000, 20_000).map((n) => `Bearer ${'x'.repeat(n)}`),
  )
}

export function authorization(ctx: FuzzContext): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 6, arbitrary: validAuthorization(ctx) },
    { weight: 3, arbitrary: malformedAuthorization(ctx) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'APPLICATION/JSON']
const ODD_TYPES = [
  'application/json; charset=latin1', 'application/json; charset="utf-16"', 'application/json;charset=', 'application/json; charset=utf-8; charset=utf-16',
  'application/json, text/plain', 'application/jsonx', 'application/json ; q=1', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', '', ';;', 'application/octet-stream', 'application/x-ndjson', 'text/csv; charset=iso-8859-1',
  `application/json; boundary="${'x'.repeat(5000)}"`, utf8Bytes('application/json; charset=\u00fc'),
]

/** Content-Type of a body: mostly what the operation expects, often an odd charset or another type. */
export function contentType(expected: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...expected) },
    { weight: 3, arbitrary: fc.constantFrom(...ODD_TYPES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  )
}

export const jsonContentTypes = JSON_TYPES
export const fileContentTypes = ['application/x-ndjson', 'text/csv', 'application/json', 'text/plain', 'application/octet-stream']

/** Headers beside the ones the operation needs: Host variants, upgrades, ranges, conditionals, junk. */
export function extraHeaders(port: number): fc.Arbitrary<Header[]> {
  const header = fc.constantFrom<Header>(
    ['Host', `localhost:${port}`], ['Host', `LOCALHOST:${port}`], ['Host', `[::1]:${port}`], ['Host', `evil.example:${port}`],
    ['Host', '127.0.0.1'], ['Host', `127.0.0.1:${port}.`], ['Host', ''], ['Host', `127.0.0.1:${port}, evil.example`],
    ['Accept', 'application/xml'], ['Accept-Encoding', 'gzip, br'], ['Content-Encoding', 'gzip'], ['Expect', '100-continue'],
    ['Connection', 'close'], ['Connection', 'Upgrade'], ['Upgrade', 'websocket'], ['Upgrade', 'h2c'], ['Range', 'bytes=0-10'],
    ['Range', 'bytes=99999999-'], ['Range', 'bytes=5-1,junk'], ['If-None-Match', '*'], ['If-Modified-Since', 'yesterday'],
    ['X-HTTP-Method-Override', 'DELETE'], ['Origin', 'https://evil.example'], ['X-Forwarded-Host', 'evil.example'],
    ['Cookie', 'a='.repeat(3000)], ['X-Junk', utf8Bytes('\u00e9\u65e5\ud83d\udcde')], ['Accept-Charset', 'utf-7'],
  )
  return fc.oneof({ weight: 3, arbitrary: fc.constant<Header[]>([]) }, { weight: 1, arbitrary: fc.array(header, { minLength: 1, maxLength: 3 }) })
}
