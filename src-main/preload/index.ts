import { contextBridge, ipcRenderer } from 'electron'
import { type DesktopBridge, TRPC_IPC_CHANNEL, TRPC_STREAM_CHUNK_CHANNEL, TRPC_STREAM_CLOSE_CHANNEL, TRPC_STREAM_OPEN_CHANNEL } from '../../src-shared/ipc'

// Chunks of open streams, by the id this side gave each: registered before the stream is opened,
// so no chunk can arrive before its listener.
const streams = new Map<number, (chunk: string | null) => void>()
let nextStreamId = 1
ipcRenderer.on(TRPC_STREAM_CHUNK_CHANNEL, (_event, id: number, chunk: string | null) => {
  streams.get(id)?.(chunk)
  if (chunk === null) streams.delete(id)
})

// The renderer's only window on the main process: tRPC requests, and tRPC subscriptions' streams.
const bridge: DesktopBridge = {
  desktop: true,
  trpc: (request) => ipcRenderer.invoke(TRPC_IPC_CHANNEL, request),
  trpcStream: (request, onChunk) => {
    const id = nextStreamId++
    streams.set(id, onChunk)
    return {
      opened: ipcRenderer.invoke(TRPC_STREAM_OPEN_CHANNEL, id, request),
      close: () => {
        streams.delete(id)
        ipcRenderer.send(TRPC_STREAM_CLOSE_CHANNEL, id)
      },
    }
  },
}
contextBridge.exposeInMainWorld('callscope', bridge)
