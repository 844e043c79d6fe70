import fc from 'fast-check'
import { type Body, fileBody, jsonBody, strayBody } from './bodies'
import type { FuzzContext } from './fuzz-server'
import { authorization, contentType, extraHeaders, fileContentTypes, type Header, jsonContentTypes } from './headers'
import type { Operation, Param } from './operations'
import type { HttpRequest } from './pool-client'
import { rawRequest, type RawRequest } from './raw-requests'
import { hostileValue, paramValue } from './values'

/** One generated request: on the keep-alive pool, or raw bytes on a socket of its own. */
export type FuzzRequest = { operation: string; label: string } & ({ transport: 'pool'; http: HttpRequest } | { transport: 'raw'; raw: RawRequest })

/** fast-check prints counterexamples with this: the label, never a 9 MiB body. */
function labelled<T extends { label: string }>(request: T): T {
  return Object.assign(request, { [fc.toStringMethod]: () => request.label })
}

const WRONG_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO']

/** Path parameters whose valid values are ids of the demo store. */
function idsFor(param: Param, ctx: FuzzContext): readonly string[] | undefined {
  return { tenant_id: ctx.ids.tenants, agent_id: ctx.ids.agents, squad_id: ctx.ids.squads }[param.name]
}

function pathOf(op: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const params = op.params.filter((p) => p.in === 'path')
  const values = params.map((p) => paramValue(p, ctx, idsFor(p, ctx)))
  return fc.tuple(...values).map((chosen) => params.reduce((path, p, i) => path.replace(`{${p.name}}`, chosen[i]!), op.path))
}

/** Hostile rewrites of a path that leave its route recognisable: `//`, `..`, encoded slashes, case, length. */
const PATH_MUTATIONS: Array<(path: string) => string> = [
  (p) => `/${p}`,
  (p) => p.replace(/\//g, '//'),
  (p) => `${p}/`,
  (p) => p.replace(/\/([^/]*)$/, '/./$1'),
  (p) => `/x/..${p}`,
  (p) => `/%2e%2e${p}`,
  (p) => p.replace(/\/([^/]*)$/, '%2F$1'),
  (p) => p.replace(/[a-z]/g, (c) => c.toUpperCase()),
  (p) => `${p};jsessionid=1`,
  (p) => `${p}%00`,
  (p) => `${p}/${'a'.repeat(5000)}`,
  (p) => `/${'x/'.repeat(2000)}..${p}`,
]

function queryOf(op: Operation, ctx: FuzzContext): fc.Arbitrary<string> {
  const params = op.params.filter((p) => p.in === 'query')
  const pairs = fc.tuple(...params.map((p) => fc.option(paramValue(p, ctx), { freq: 2 }))).map((values) =>
    values.flatMap((v, i) => (v === null ? [] : [`${params[i]!.name}=${v}`])),
  )
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string[]>([]) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...params.map((p) => p.name), 'unknown', '', '%00', 'a[b]'), hostileValue).map(([n, v]) => [`${n}=${v}`]) },
    { weight: 1, arbitrary: fc.constantFrom(['&&'], ['='], ['a'], ['%'], ['a=%ZZ'], [`x=1${'&x=2'.repeat(2000)}`]) },
  )
  return fc.tuple(pairs, extra).map(([a, b]) => (a.length + b.length === 0 ? '' : `?${[...a, ...b].join('&')}`))
}

function bodyOf(op: Operation, ctx: FuzzContext): fc.Arbitrary<[Body | null, string | undefined]> {
  if (op.body?.kind === 'json') return fc.tuple(jsonBody(op.body.schema), contentType(jsonContentTypes))
  if (op.body?.kind === 'file') return fc.tuple(fileBody(ctx), contentType(fileContentTypes))
  return fc.oneof(
    { weight: 9, arbitrary: fc.constant<[Body | null, string | undefined]>([null, undefined]) },
    { weight: 1, arbitrary: fc.tuple(strayBody, contentType(jsonContentTypes)) },
  )
}

/** A request to one operation: the right method mostly, params valid or hostile, any token, any body. */
export function operationRequest(op: Operation, ctx: FuzzContext, port: number): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom(...WRONG_METHODS) })
  const mutation = fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...PATH_MUTATIONS) })
  const auth = op.authenticated ? authorization(ctx) : fc.option(authorization(ctx), { freq: 2 })
  return fc
    .record({ method, path: pathOf(op, ctx), mutation, query: queryOf(op, ctx), auth, body: bodyOf(op, ctx), extra: extraHeaders(port), chunked: fc.boolean() })
    .map(({ method, path, mutation, query, auth, body: [body, type], extra, chunked }) => {
      const headers: Header[] = [...(auth === undefined || auth === null ? [] : [['Authorization', auth] as Header]), ...(type === undefined ? [] : [['Content-Type', type] as Header]), ...extra]
      const target = (mutation ? mutation(path) : path) + query
      const http: HttpRequest = { method, target, headers, body, chunked: chunked && body !== null }
      return labelled({ operation: op.id, transport: 'pool' as const, http, label: describe(http) })
    })
}

function describe(http: HttpRequest): string {
  const headers = http.headers.map(([n, v]) => `${n}: ${v.length > 60 ? `${v.slice(0, 60)}…(${v.length})` : v}`).join(' | ')
  const target = http.target.length > 160 ? `${http.target.slice(0, 160)}…(${http.target.length})` : http.target
  return `${http.method} ${target} [${headers}]${http.body ? ` body: ${http.body.label}${http.chunked ? ' (chunked)' : ''}` : ''}`
}

/** Every operation of the document and the extensions, a few raw requests beside them. */
export function requestArbitrary(operations: Operation[], ctx: FuzzContext, port: number): fc.Arbitrary<FuzzRequest> {
  const weight = (op: Operation) => (op.id.startsWith('GET /export/') || op.id.startsWith('POST /imports/') ? 1 : 3)
  const raw = rawRequest(port, ctx).map((r) => labelled({ operation: 'raw socket', transport: 'raw' as const, raw: r, label: r.label }))
  return fc.oneof(...operations.map((op) => ({ weight: weight(op), arbitrary: operationRequest(op, ctx, port) })), { weight: 3, arbitrary: raw })
}
