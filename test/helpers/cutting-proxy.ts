import { createServer, request } from 'node:http'
import { listenOnLoopback } from './loopback-server'

export interface CuttingProxy {
  url: string
  /** True once a request was cut. */
  readonly cut: boolean
  close(): Promise<void>
}

/**
 * A loopback HTTP proxy in front of a server that cuts the `nth` POST (1-based) once its body runs
 * past `afterBytes`: both connections destroyed part way through the body, as a network that drops.
 * How a test interrupts an upload. Other requests pass through, streamed both ways.
 */
export async function startCuttingProxy(target: string, cutting: { nth: number; afterBytes: number }): Promise<CuttingProxy> {
  let cut = false
  let posts = 0
  const server = createServer((req, res) => {
    const victim = req.method === 'POST' && ++posts === cutting.nth
    const headers = { ...req.headers }
    delete headers.host
    const upstream = request(`${target}${req.url ?? '/'}`, { method: req.method, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(res)
    })
    upstream.on('error', () => res.destroy())
    let sent = 0
    req.on('data', (chunk: Buffer) => {
      sent += chunk.length
      if (victim && !cut && sent > cutting.afterBytes) {
        cut = true
        upstream.destroy()
        req.socket.destroy()
        return
      }
      if (!upstream.write(chunk)) req.pause()
    })
    upstream.on('drain', () => req.resume())
    req.on('end', () => upstream.end())
  })
  const listener = await listenOnLoopback(server)
  return {
    url: listener.url,
    get cut() {
      return cut
    },
    close: listener.close,
  }
}
