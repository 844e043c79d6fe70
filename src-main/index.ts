import { join } from 'node:path'
import { app, BrowserWindow } from 'electron'
import { createService, type Service } from './service'

/*
 * Electron entry: window and lifecycle only. Everything else is the same service the headless
 * mode runs, created before the window loads and closed on quit.
 */

let service: Service | null = null

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
  window.once('ready-to-show', () => window.show())
  const devUrl = process.env.ELECTRON_RENDERER_URL
  if (!app.isPackaged && devUrl) await window.loadURL(devUrl)
  else await window.loadFile(join(import.meta.dirname, '../renderer/index.html'))
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    const [window] = BrowserWindow.getAllWindows()
    if (window) {
      if (window.isMinimized()) window.restore()
      window.focus()
    }
  })
  app.whenReady().then(async () => {
    service = await createService({ dbPath: join(app.getPath('userData'), 'callscope.sqlite') })
    await createWindow()
  })
  app.on('window-all-closed', () => app.quit())
  app.on('will-quit', () => {
    void service?.close()
  })
}
