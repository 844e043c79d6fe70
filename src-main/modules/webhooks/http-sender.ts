import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { Socket } from 'node:net'
import { type DeliveryErrorKind, WEBHOOK_LIMITS } from '../../../src-shared/schemas/webhooks'
import { describeError, errorKind } from './error-kind'
import { bareHost, checkLiteral, guardedLookup } from './target-guard'

/*
 * One attempt: a POST with node:http(s) rather than fetch, because only its `lookup` option lets
 * the private-address check see the address the socket connects to (target-guard.ts); fetch
 * would need undici's own Agent, a package Callscope does not depend on. Every attempt opens a
 * connection of its own (no keep-alive pool), so each is checked. An AbortController bounds the
 * whole exchange (connect, headers and body) by the tenant's timeout; the answer is read up to
 * WEBHOOK_LIMITS.responseReadMaxBytes and the connection dropped after that, so a slow or endless
 * receiver costs at most the timeout and a bounded buffer.
 */

export interface SendRequest {
  url: string
  headers: Record<string, string>
  body: string
  timeoutMs: number
  allowPrivate: boolean
  /** Aborts the attempt (the service closing). */
  signal?: AbortSignal
}

export interface SendResult {
  address: string | null
  status: number | null
  headers: Record<string, string> | null
  excerpt: string | null
  truncated: boolean
  latencyMs: number
  errorKind: DeliveryErrorKind | null
  errorMessage: string | null
}

/** Response headers as one string each (repeated ones joined as fetch does), capped in number. */
function flatHeaders(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  const raw = response.rawHeaders
  for (let i = 0; i + 1 < raw.length && Object.keys(out).length < 100; i += 2) {
    const name = raw[i]!.toLowerCase()
    out[name] = out[name] === undefined ? raw[i + 1]! : `${out[name]}, ${raw[i + 1]}`
  }
  return out
}

/** The first bytes as text for the log; a multi-byte character cut at the end becomes U+FFFD. */
const excerptOf = (chunks: Buffer[]) => Buffer.concat(chunks).subarray(0, WEBHOOK_LIMITS.responseExcerptMaxBytes).toString('utf8')

export async function sendOnce(req: SendRequest): Promise<SendResult> {
  const url = new URL(req.url)
  const started = performance.now()
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), req.timeoutMs)
  req.signal?.addEventListener('abort', () => controller.abort(), { once: true })
  let address: string | null = null
  const failed = (error: unknown): SendResult => {
    const kind = controller.signal.aborted ? 'timeout' : errorKind(error)
    return {
      address, status: null, headers: null, excerpt: null, truncated: false,
      latencyMs: Math.round(performance.now() - started),
      errorKind: kind,
      errorMessage: describeError(kind, error, { host: bareHost(url), timeoutMs: req.timeoutMs }),
    }
  }
  try {
    checkLiteral(url, req.allowPrivate)
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest
      const request = send(url, {
        method: 'POST',
        headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
        lookup: guardedLookup(req.allowPrivate) as never,
        signal: controller.signal,
        agent: false,
        maxHeaderSize: 16 * 1024,
      })
      request.once('socket', (socket: Socket) => socket.once('connect', () => (address = socket.remoteAddress ?? null)))
      request.once('response', resolve)
      // Errors after the answer came (the socket torn down with it) must not go unhandled.
      request.on('error', reject)
      request.end(req.body)
    })
    const chunks: Buffer[] = []
    let read = 0
    let truncated = false
    await new Promise<void>((resolve, reject) => {
      response.on('data', (chunk: Buffer) => {
        if (read >= WEBHOOK_LIMITS.responseReadMaxBytes) return
        chunks.push(chunk)
        read += chunk.length
        if (read >= WEBHOOK_LIMITS.responseReadMaxBytes) {
          // Enough to show: the rest is not waited for, however much (or however slowly) it comes.
          truncated = true
          resolve()
          response.destroy()
        }
      })
      response.once('end', resolve)
      // After a deliberate destroy, the error and 'aborted' it raises are ours, not the receiver's.
      response.once('error', (error) => (truncated ? resolve() : reject(error)))
      response.once('aborted', () => (truncated ? resolve() : reject(Object.assign(new Error('the receiver closed the connection mid-answer'), { code: 'ECONNRESET' }))))
    })
    return {
      address,
      status: response.statusCode ?? null,
      headers: flatHeaders(response),
      excerpt: excerptOf(chunks),
      truncated: truncated || read > WEBHOOK_LIMITS.responseExcerptMaxBytes,
      latencyMs: Math.round(performance.now() - started),
      errorKind: null,
      errorMessage: null,
    }
  } catch (error) {
    return failed(error)
  } finally {
    clearTimeout(timer)
  }
}
