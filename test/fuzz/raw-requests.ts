import fc from 'fast-check'
import type { FuzzContext } from './fuzz-server'

/**
 * Requests written byte for byte on a socket: what node:http or undici refuse to send (raw control
 * bytes in the target, bare LF, obs-fold, conflicting framing headers, bad chunk sizes, pipelining).
 * Each is followed on the same connection by `GET /healthz` with `Connection: close`: if the server
 * kept the connection, that one must be answered 200 (a desync would show here), then the server closes.
 */
export interface RawRequest {
  label: string
  bytes: Buffer
  /** The methods of the requests in `bytes` and `followUp`, in order (HEAD answers have no body). */
  methods: string[]
  /**
   * Sent once every other request is answered, unless an answer closed the connection. A request
   * line that may not end a request head carries its follow-up in `bytes` instead (pipelined).
   */
  followUp?: Buffer
  /** The request is cut short and the client half-closes: no answer is a correct outcome. */
  truncated: boolean
}

const latin1 = (text: string) => Buffer.from(text, 'latin1')

const TARGETS = [
  '/healthz', '/tenants/%00', '/tenants/a b', '/tenants/\u0000', '/tenants/\u00ff\u00fe', '/tenants/\u00c0\u00af', '/tenants/\t',
  '//tenants//x', '/./healthz', '/../../etc/passwd', '/docs/assets/../../../../etc/passwd', '/docs/assets/..%2f..%2f..%2fpackage.json',
  '/console/..%2F..%2Fpackage.json', '/console/%2e%2e/%2e%2e/package.json', '*', 'healthz', 'http://127.0.0.1/healthz',
  'http://evil.example/healthz', '127.0.0.1:80', '/healthz#frag', '/healthz?%', '/logs/calls?limit=%FF', '/\u00e9t\u00e9',
  `/${'a'.repeat(20_000)}`, '/healthz\r\nX: y',
]
const METHODS = ['GET', 'get', 'POST', 'HEAD', 'OPTIONS', 'TRACE', 'CONNECT', 'PRI', 'BREW', 'G\u00c9T', 'GET GET', '']
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.2', 'http/1.1', 'HTTP/1', 'HTTP/0.9', '']

/** Header blocks with framing or syntax a client library would never produce. */
function oddHeaders(host: string, token: string): fc.Arbitrary<[label: string, headers: string, body: string]> {
  const auth = `Authorization: Bearer ${token}`
  return fc.constantFrom<[string, string, string]>(
    ['plain', `Host: ${host}\r\n${auth}\r\n`, ''],
    ['no Host', `${auth}\r\n`, ''],
    ['two Hosts', `Host: ${host}\r\nHost: evil.example\r\n`, ''],
    ['obs-fold', `Host: ${host}\r\nAuthorization: Bearer\r\n ${token}\r\n`, ''],
    ['no colon', `Host: ${host}\r\nJunk\r\n`, ''],
    ['space before colon', `Host: ${host}\r\nAuthorization : Bearer ${token}\r\n`, ''],
    ['NUL in value', `Host: ${host}\r\nAuthorization: Bearer \u0000x\r\n`, ''],
    ['utf-8 Authorization', `Host: ${host}\r\nAuthorization: Bearer \u00e6\u0097\u00a5\r\n`, ''],
    ['header over 16 KiB', `Host: ${host}\r\nX-Big: ${'x'.repeat(17_000)}\r\n`, ''],
    ['Content-Length -1', `Host: ${host}\r\nContent-Length: -1\r\n`, ''],
    ['Content-Length 1, 1', `Host: ${host}\r\nContent-Length: 1, 1\r\n`, 'x'],
    ['two Content-Lengths', `Host: ${host}\r\nContent-Length: 2\r\nContent-Length: 3\r\n`, 'xyz'],
    ['Content-Length and chunked', `Host: ${host}\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n`, '0\r\n\r\n'],
    ['chunked then identity', `Host: ${host}\r\nTransfer-Encoding: chunked, identity\r\n`, '0\r\n\r\n'],
    ['gzip, chunked', `Host: ${host}\r\nTransfer-Encoding: gzip, chunked\r\n`, '0\r\n\r\n'],
    ['chunkedx', `Host: ${host}\r\nTransfer-Encoding: chunkedx\r\n`, '0\r\n\r\n'],
    ['bad chunk size', `Host: ${host}\r\nTransfer-Encoding: chunked\r\n`, 'zz\r\nabc\r\n0\r\n\r\n'],
    ['huge chunk size', `Host: ${host}\r\nTransfer-Encoding: chunked\r\n`, 'ffffffffffffffffff\r\nabc\r\n0\r\n\r\n'],
    ['chunk extension', `Host: ${host}\r\nTransfer-Encoding: chunked\r\n`, `2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`],
    ['trailers', `Host: ${host}\r\nTransfer-Encoding: chunked\r\n`, '2\r\n{}\r\n0\r\nX-Trailer: 1\r\n\r\n'],
    ['Expect 100-continue', `Host: ${host}\r\nExpect: 100-continue\r\nContent-Length: 2\r\n`, '{}'],
    ['Upgrade h2c', `Host: ${host}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n`, ''],
  )
}

const head = (method: string, target: string, version: string) => `${method} ${target}${version ? ` ${version}` : ''}\r\n`
const follow = (host: string) => `GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
/** A complete request answered before the follow-up goes: a client must not pipeline after an Upgrade (RFC 9110 §7.8). */
const followingAnswer = (host: string, label: string, method: string, text: string): RawRequest => ({
  label,
  bytes: latin1(text),
  methods: [method, 'GET'],
  truncated: false,
  followUp: latin1(follow(host)),
})

/** One hostile request, framed well enough that the follow-up starts where it should. */
export function rawRequest(port: number, ctx: FuzzContext): fc.Arbitrary<RawRequest> {
  const host = `127.0.0.1:${port}`
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...METHODS), fc.constantFrom(...TARGETS), fc.constantFrom(...VERSIONS)).map(([m, t, v]) => requestLine(host, m, t, v)) },
    { weight: 3, arbitrary: fc.tuple(fc.constantFrom('GET', 'POST'), fc.constantFrom('/healthz', '/admin/providers/validate/stt', '/tenants/x'), oddHeaders(host, ctx.tokens.admin)).map(([m, t, h]) => headerBlock(host, m, t, h)) },
    { weight: 1, arbitrary: fc.constant(truncatedBody(host, ctx.tokens.admin)) },
    { weight: 1, arbitrary: fc.integer({ min: 2, max: 20 }).map((n) => pipelined(host, n)) },
    { weight: 1, arbitrary: fc.constant(bareLf(host)) },
  )
}

function requestLine(host: string, method: string, target: string, version: string): RawRequest {
  const first = version === 'HTTP/0.9' || version === '' ? head(method, target, version) : `${head(method, target, version)}Host: ${host}\r\n\r\n`
  return { label: `raw ${JSON.stringify(first.slice(0, 80))}`, bytes: latin1(first + follow(host)), methods: [method, 'GET'], truncated: false }
}

function headerBlock(host: string, method: string, target: string, [label, headers, body]: [string, string, string]): RawRequest {
  const framing = body && !/Content-Length|Transfer-Encoding/i.test(headers) ? `Content-Length: ${body.length}\r\n` : ''
  return followingAnswer(host, `raw ${method} ${target} (${label})`, method, `${method} ${target} HTTP/1.1\r\n${headers}${framing}\r\n${body}`)
}

/** A body shorter than its Content-Length, then the client half-closes: it will send no more. */
function truncatedBody(host: string, token: string): RawRequest {
  const text = `POST /admin/providers/validate/stt HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"provider":`
  return { label: 'raw truncated body, half-closed', bytes: latin1(text), methods: ['POST'], truncated: true }
}

function pipelined(host: string, count: number): RawRequest {
  const one = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`
  return { label: `raw ${count} pipelined requests`, bytes: latin1(one.repeat(count) + follow(host)), methods: [...Array(count).fill('GET'), 'GET'], truncated: false }
}

function bareLf(host: string): RawRequest {
  return followingAnswer(host, 'raw bare LF line ends', 'GET', `GET /healthz HTTP/1.1\nHost: ${host}\n\n`)
}
