import type { AddressInfo } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import type { Hono } from 'hono'
import type { HostGuard } from './host-guard'

export interface ListenerOptions {
  host: string
  /** 0 picks a free port. */
  port: number
  hostGuard?: HostGuard
}

export interface Listener {
  url: string
  host: string
  port: number
  close(): Promise<void>
}

export class ListenError extends Error {}

/** Serves a Hono app on a socket; resolves once it is accepting connections. */
export async function startListener(app: Pick<Hono, 'fetch'>, options: ListenerOptions): Promise<Listener> {
  const server = createAdaptorServer({ fetch: app.fetch })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        new ListenError(
          error.code === 'EADDRINUSE'
            ? `port ${options.port} on ${options.host} is already in use; choose another with --port`
            : error.code === 'EADDRNOTAVAIL'
              ? `address ${options.host} is not available on this machine`
              : error.code === 'EACCES'
                ? `not allowed to listen on ${options.host}:${options.port}`
                : `could not listen on ${options.host}:${options.port}: ${error.message}`,
        ),
      )
    })
    server.listen(options.port, options.host, () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  options.hostGuard?.setPort(port)
  const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host
  return {
    url: `http://${hostForUrl}:${port}`,
    host: options.host,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Idle keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections()
      }),
  }
}
