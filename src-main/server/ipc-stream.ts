import type { IpcTrpcResponse } from '../../src-shared/ipc'
import { createAppRouter } from './app-router'
import { answerIpcRequest, FORBIDDEN_SENDER, type IpcHandlerOptions, type IpcSenderInfo, isRequest, MALFORMED_REQUEST } from './ipc'

export { TRPC_STREAM_CHUNK_CHANNEL, TRPC_STREAM_CLOSE_CHANNEL, TRPC_STREAM_OPEN_CHANNEL } from '../../src-shared/ipc'

/** Sends one chunk of a stream's body to the renderer that opened it; null once it has ended. */
export type SendChunk = (id: number, chunk: string | null) => void

/**
 * tRPC subscriptions over IPC: the same SSE response the HTTP listener would send, its body
 * forwarded chunk by chunk. Pure like the request handler (ipc.ts): index.ts wires it to ipcMain
 * and to the sender's webContents.send, tests call it with fake events.
 */
export function createIpcStreamHandler(options: IpcHandlerOptions) {
  const appRouter = createAppRouter(options.service)
  const open = new Map<string, AbortController>()
  const keyOf = (senderId: number, id: number) => `${senderId}:${id}`

  return {
    async open(event: IpcSenderInfo, id: unknown, request: unknown, send: SendChunk): Promise<IpcTrpcResponse> {
      if (!options.isTrustedSender(event)) return FORBIDDEN_SENDER
      if (!Number.isSafeInteger(id) || !isRequest(request) || request.method !== 'GET') return MALFORMED_REQUEST
      const key = keyOf(event.sender.id, id as number)
      if (open.has(key)) return MALFORMED_REQUEST
      const stop = new AbortController()
      open.set(key, stop)
      const response = await answerIpcRequest(options, appRouter, request, stop.signal).catch((error: unknown) => {
        open.delete(key)
        throw error
      })
      if (!(response instanceof Response)) {
        open.delete(key)
        return response
      }
      if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        open.delete(key)
        return { status: response.status, headers: Object.fromEntries(response.headers), body: await response.text() }
      }
      void forward(response.body, (chunk) => send(id as number, chunk), stop.signal).finally(() => open.delete(key))
      return { status: response.status, headers: Object.fromEntries(response.headers), body: '' }
    },
    close(senderId: number, id: unknown): void {
      if (typeof id !== 'number') return
      open.get(keyOf(senderId, id))?.abort()
    },
    /** A window that reloads or closes leaves no stream behind. */
    closeAll(senderId: number): void {
      for (const [key, stop] of open) if (key.startsWith(`${senderId}:`)) stop.abort()
    },
    /** Streams open right now. */
    count: () => open.size,
  }
}

async function forward(body: ReadableStream<Uint8Array>, send: (chunk: string | null) => void, signal: AbortSignal): Promise<void> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  const cancel = () => void reader.cancel().catch(() => {})
  signal.addEventListener('abort', cancel, { once: true })
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      send(value)
    }
  } catch {
    // Cancelled, or the subscription failed: either way the renderer is told the stream ended.
  } finally {
    signal.removeEventListener('abort', cancel)
    send(null)
  }
}
