/** The IPC contract between the desktop app's preload and main process (no Node, no DOM). */

/** The channel that carries the console's tRPC requests. */
export const TRPC_IPC_CHANNEL = 'callscope:trpc'

/** One tRPC HTTP exchange, carried over IPC as plain data (structured-clone safe). */
export interface IpcTrpcRequest {
  /** Path and query after the endpoint, e.g. `/tenants.get?input=…`. */
  url: string
  method: 'GET' | 'POST'
  body?: string
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
}
