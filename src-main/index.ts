import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, ipcMain } from 'electron'
import { createService, type Service } from './service'
import { createIpcTrpcHandler, TRPC_IPC_CHANNEL, trustedSenderCheck } from './transport/ipc'

/*
 * Electron entry: window, lifecycle and IPC registration only. Everything else is the same service
 * the headless mode runs, created before the window loads and closed on quit.
 */

let service: Service | null = null
let mainWindow: BrowserWindow | null = null

const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
/** The only page allowed to talk to the service over IPC. */
const appUrlPrefix = devUrl ?? pathToFileURL(rendererIndex).href

async function createWindow(): Promise<void> {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Callscope',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  mainWindow = window
  window.on('closed', () => {
    mainWindow = null
  })
  window.once('ready-to-show', () => window.show())
  if (devUrl) await window.loadURL(devUrl)
  else await window.loadFile(rendererIndex)
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore()
      mainWindow.focus()
    }
  })
  app.whenReady().then(async () => {
    service = await createService({ dbPath: join(app.getPath('userData'), 'callscope.sqlite') })
    const handler = createIpcTrpcHandler({
      service,
      runtime: { mode: 'desktop', listenerUrl: null },
      isTrustedSender: trustedSenderCheck(() => mainWindow?.webContents.id ?? null, appUrlPrefix),
    })
    ipcMain.handle(TRPC_IPC_CHANNEL, (event, request) => handler(event, request))
    await createWindow()
  })
  app.on('window-all-closed', () => app.quit())
  app.on('will-quit', () => {
    void service?.close()
  })
}
