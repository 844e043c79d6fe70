import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Readable } from 'node:stream'
import { describeConnectionError } from '../lib/connection-errors'

/** Where the console reads from while the desktop app is connected to a team server. */
export interface TeamTarget {
  /** Base URL, no trailing slash. */
  url: string
  token: string
  /** PEM of the server's certificate to trust (a self-signed team server); else the system's authorities. */
  certificate?: string
}

export interface TeamRequest {
  method: 'GET' | 'POST'
  body?: string
  headers?: Record<string, string>
  signal?: AbortSignal
}

/**
 * One request to the team server with its bearer token, answered as a web Response whose body
 * streams (a live tail's events arrive as they come). node:https rather than fetch: fetch cannot be
 * told to trust one certificate.
 */
export function teamFetch(target: TeamTarget, path: string, init: TeamRequest): Promise<Response> {
  const url = new URL(`${target.url}${path}`)
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest
  const headers: Record<string, string> = { ...init.headers, authorization: `Bearer ${target.token}` }
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body))
  return new Promise((resolve, reject) => {
    const req = send(url, { method: init.method, headers, signal: init.signal, ...(target.certificate ? { ca: target.certificate } : {}) }, (res: IncomingMessage) => {
      const responseHeaders = new Headers()
      for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') responseHeaders.set(name, value)
      const noBody = res.statusCode === 204 || res.statusCode === 304
      resolve(new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), { status: res.statusCode ?? 502, headers: responseHeaders }))
    })
    req.on('error', reject)
    req.end(init.body)
  })
}

/** What a failed request to the team server means for the user, and what to do about it. */
export const describeTeamError = (url: string, error: unknown): string =>
  describeConnectionError(url, error, `paste the server's certificate (PEM) under "Server certificate"`)
