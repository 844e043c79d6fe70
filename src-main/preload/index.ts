import { contextBridge } from 'electron'

// The renderer's only window on the main process. The tRPC IPC bridge is added here, and only here.
contextBridge.exposeInMainWorld('callscope', { desktop: true })
