import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { listenOnLoopback } from './loopback-server'

/** What a stand-in receiver does with its n-th request (0-based). */
export type ReceiverBehaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  /** Reads the request and never answers (the sender's timeout must end it). */
  | 'hang'
  /** Reads the request, then cuts the connection without a byte of answer. */
  | 'reset'

export interface ReceivedRequest {
  headers: IncomingHttpHeaders
  body: string
}

export interface WebhookReceiver {
  url: string
  requests: ReceivedRequest[]
  /** Resolves once `count` requests have arrived. */
  received(count: number): Promise<ReceivedRequest[]>
  close(): Promise<void>
}

/** A receiver on 127.0.0.1 that answers each request as `behave` says and records what it got. */
export async function startWebhookReceiver(behave: (index: number) => ReceiverBehaviour): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = []
  const waiters: Array<{ count: number; resolve: () => void }> = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const index = requests.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }) - 1
      for (const w of waiters.filter((w) => requests.length >= w.count)) w.resolve()
      const behaviour = behave(index)
      if (behaviour === 'hang') return
      if (behaviour === 'reset') return req.socket.resetAndDestroy()
      res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers })
      res.end(behaviour.body ?? '')
    })
  })
  const listener = await listenOnLoopback(server)
  return {
    url: `${listener.url}/hooks`,
    requests,
    received: (count) =>
      requests.length >= count ? Promise.resolve(requests) : new Promise((resolve) => waiters.push({ count, resolve: () => resolve(requests) })),
    close: listener.close,
  }
}

/**
 * An independent check of a Standard Webhooks signature with node:crypto alone (not the package
 * Callscope signs with): HMAC-SHA256 of `${id}.${timestamp}.${body}` under the base64-decoded
 * secret after `whsec_`, compared with each `v1,` signature of the header.
 */
export function independentlyVerified(secret: string, headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest()
  return String(headers['webhook-signature'])
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => {
      const given = Buffer.from(s.slice(3), 'base64')
      return given.length === expected.length && timingSafeEqual(given, expected)
    })
}

/** Signs as an independent sender would (the inbox tests' backend), with node:crypto alone. */
export function independentlySigned(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}`, 'content-type': 'application/json' }
}
