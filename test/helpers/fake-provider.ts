import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { listenOnLoopback } from './loopback-server'

export interface FakeProvider {
  /** Base URL; append `/hang` to get no answer, `/status/<code>` to get that status
  (with Google's API_KEY_INVALID in the body when the path also holds `key-invalid`). */
  url: string
  /** Every request received: method, path with query, headers. */
  requests: Array<{ method: string; url: string; headers: IncomingMessage['headers'] }>
  close(): Promise<void>
}

/**
 * A local stand-in for a provider's API: 200 when the request carries `goodKey` (in any header or
 * query parameter), 401 when it does not, no answer at all under `/hang`, and `/status/<code>`.
 */
export async function startFakeProvider(goodKey: string): Promise<FakeProvider> {
  const requests: FakeProvider['requests'] = []
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers })
    const url = req.url ?? '/'
    if (url.startsWith('/hang')) return // never answers
    const status = /^\/status\/(\d{3})/.exec(url)
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: { status: url.includes('key-invalid') ? 'API_KEY_INVALID' : 'FAILED_PRECONDITION' } }))
      return
    }
    const carried = [...Object.values(req.headers).flat(), ...new URL(url, 'http://x').searchParams.values()]
    const ok = carried.some((v) => typeof v === 'string' && v.includes(goodKey))
    res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' })
    res.end(JSON.stringify(ok ? { ok: true } : { err_msg: 'Invalid credentials' }))
  })
  return { ...(await listenOnLoopback(server)), requests }
}

/** A loopback URL nothing listens on: connections are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}`
}
