/** The IPC contract between the desktop app's preload and main process (no Node, no DOM). */

/** The channel that carries the console's tRPC requests. */
export const TRPC_IPC_CHANNEL = 'callscope:trpc'

/** One tRPC HTTP exchange, carried over IPC as plain data (structured-clone safe). */
export interface IpcTrpcRequest {
  /** Path and query after the endpoint, e.g. `/tenants.get?input=…`. */
  url: string
  method: 'GET' | 'POST'
  body?: string
  /** The console's source picker (`local` or a backend's base URL): what X-Callscope-Source says over HTTP. */
  source?: string
}

export interface IpcTrpcResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** What the preload exposes as `window.callscope`. */
export interface DesktopBridge {
  desktop: true
  trpc(request: IpcTrpcRequest): Promise<IpcTrpcResponse>
  trpcStream: IpcStreamOpener
}

/**
 * Streams (the live tail's tRPC subscription, as Server-Sent Events): the renderer opens one with
 * an id of its own and a request, the main process sends the response body's text in chunks on the
 * chunk channel (null once it ends), and the renderer closes it when done.
 */
export const TRPC_STREAM_OPEN_CHANNEL = 'callscope:trpc-stream-open'
export const TRPC_STREAM_CHUNK_CHANNEL = 'callscope:trpc-stream-chunk'
export const TRPC_STREAM_CLOSE_CHANNEL = 'callscope:trpc-stream-close'

export interface IpcStream {
  /** The response's status and headers (and its body when it is not a stream: an error). */
  opened: Promise<IpcTrpcResponse>
  close(): void
}

/** What the preload exposes as `window.callscope.trpcStream`. */
export type IpcStreamOpener = (request: IpcTrpcRequest, onChunk: (chunk: string | null) => void) => IpcStream
