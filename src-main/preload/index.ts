import { contextBridge, ipcRenderer } from 'electron'
import { type DesktopBridge, TRPC_IPC_CHANNEL } from '../../src-shared/ipc'

// The renderer's only window on the main process: one function that carries tRPC requests.
const bridge: DesktopBridge = {
  desktop: true,
  trpc: (request) => ipcRenderer.invoke(TRPC_IPC_CHANNEL, request),
}
contextBridge.exposeInMainWorld('callscope', bridge)
