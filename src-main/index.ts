import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, Menu, screen, shell, type WebContents } from 'electron'
import { menuTemplate } from './desktop/app-menu'
import { createBackupControl } from './desktop/backup-control'
import { createDatabaseSession } from './desktop/database-session'
import { createSettingsStore } from './desktop/desktop-settings'
import { createListenerControl } from './desktop/listener-control'
import { guardNavigation } from './desktop/navigation-guard'
import { createTeamServerControl } from './desktop/team-server'
import { snapshotChoice, snapshotChoiceBox, snapshotWrittenDetail } from './desktop/snapshot-choice'
import { storeDamageNotice } from './desktop/store-damage-notice'
import type { Service } from './service'
import { restoreBounds, windowOptions } from './desktop/window-options'
import { VERSION } from './cli/version'
import { createFileSecretBox } from './modules/providers/secret-box'
import type { DesktopControls, RuntimeInfo } from './kit/runtime'
import { createIpcTrpcHandler, type IpcHandlerOptions, TRPC_IPC_CHANNEL, trustedSenderCheck } from './server/ipc'
import { createIpcStreamHandler, TRPC_STREAM_CHUNK_CHANNEL, TRPC_STREAM_CLOSE_CHANNEL, TRPC_STREAM_OPEN_CHANNEL } from './server/ipc-stream'

/*
 * Electron entry: wiring only. Every decision lives in desktop/ (tested under Node with Electron's
 * APIs left out); the service is the same one `callscope serve` runs, opened before the window loads.
 */

const rendererIndex = join(import.meta.dirname, '../renderer/index.html')
const devUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
/** The only page allowed to talk to the service over IPC, and the only one the window may show. */
const appUrlPrefix = devUrl ?? pathToFileURL(rendererIndex).href
const SQLITE_FILES = [{ name: 'Callscope database', extensions: ['sqlite', 'db', 'sqlite3'] }]

let mainWindow: BrowserWindow | null = null
const settings = createSettingsStore(join(app.getPath('userData'), 'settings.json'))
// npm start builds better-sqlite3 for Electron's ABI (scripts/electron-binding.mjs); packaged apps
// are rebuilt by electron-builder.
const database = createDatabaseSession({ nativeBinding: app.isPackaged ? undefined : process.env.CALLSCOPE_NATIVE_BINDING })
const runtime: RuntimeInfo = { mode: 'desktop', listenerUrl: null }
const listener = createListenerControl(settings.get().listener, {
  service: () => database.current(),
  version: VERSION,
  uiRoot: join(import.meta.dirname, '../renderer'),
  runtime,
  save: (config) => settings.update({ listener: config }),
})

async function chooseSavePath(defaultName: string): Promise<string | null> {
  const options = { defaultPath: join(app.getPath('downloads'), defaultName) }
  const result = mainWindow ? await dialog.showSaveDialog(mainWindow, options) : await dialog.showSaveDialog(options)
  return result.canceled || !result.filePath ? null : result.filePath
}

// The team server's token is sealed with a key of this installation, beside settings.json.
const teamServer = createTeamServerControl({
  saved: settings.get().teamServer,
  secretBox: createFileSecretBox(join(app.getPath('userData'), 'team-server.key')),
  save: (saved) => settings.update({ teamServer: saved }),
})

/** The open store's service, or null before the first open. */
function openService() {
  try {
    return database.current()
  } catch {
    return null
  }
}

// Settings → Backups: the open store's scheduled backups, on a thread of their own (DatabaseService.backup).
const backups = createBackupControl({
  initial: settings.get().backups,
  save: (schedule) => settings.update({ backups: schedule }),
  store: () => {
    const service = openService()
    return service && service.handle.kind === 'sqlite' ? { path: service.database.path, backup: (file) => service.database.backup(file) } : null
  },
  warn: (line) => process.stderr.write(`${line}\n`),
})

const desktop: DesktopControls = { listener, chooseSavePath, teamServer, backups }

function registerIpc(): void {
  ipcMain.removeHandler(TRPC_IPC_CHANNEL)
  const options: IpcHandlerOptions = {
    service: database.current(),
    runtime,
    desktop,
    team: () => teamServer.target(),
    isTrustedSender: trustedSenderCheck(() => mainWindow?.webContents.id ?? null, appUrlPrefix),
  }
  const handler = createIpcTrpcHandler(options)
  ipcMain.handle(TRPC_IPC_CHANNEL, (event, request) => handler(event, request))
  registerIpcStreams(options)
}

let streams: ReturnType<typeof createIpcStreamHandler> | null = null
const streamSenders = new WeakSet<WebContents>()

/** The live tail's subscriptions: each chunk goes back to the window that opened the stream. */
function registerIpcStreams(options: IpcHandlerOptions): void {
  ipcMain.removeHandler(TRPC_STREAM_OPEN_CHANNEL)
  ipcMain.removeAllListeners(TRPC_STREAM_CLOSE_CHANNEL)
  streams = createIpcStreamHandler(options)
  const current = streams
  ipcMain.handle(TRPC_STREAM_OPEN_CHANNEL, (event, id, request) => {
    const sender = event.sender
    if (!streamSenders.has(sender)) {
      // A window that reloads or closes leaves no stream behind.
      streamSenders.add(sender)
      const closeAll = () => streams?.closeAll(sender.id)
      sender.on('did-navigate', closeAll)
      sender.once('destroyed', closeAll)
    }
    return current.open(event, id, request, (streamId, chunk) => {
      if (!sender.isDestroyed()) sender.send(TRPC_STREAM_CHUNK_CHANNEL, streamId, chunk)
    })
  })
  ipcMain.on(TRPC_STREAM_CLOSE_CHANNEL, (event, id) => current.close(event.sender.id, id))
}

/** A damaged store said once in a message box, when the check on open finds it (at once or later, in the background). */
const warnIfDamaged = (service: Service) => void storeDamageNotice(service).then((box) => box && dialog.showMessageBox(box))

/** Opens another database and shows it; the listener follows the new store. */
async function switchDatabase(path: string, demo = false): Promise<void> {
  try {
    warnIfDamaged(await database.open(path, { demo }))
  } catch (error) {
    dialog.showErrorBox('Could not open the database', `${path}\n\n${error instanceof Error ? error.message : String(error)}`)
    return
  }
  settings.update({ lastDatabase: path })
  backups.restart()
  registerIpc()
  await listener.configure(listener.status().config)
  mainWindow?.webContents.reload()
}

const menuActions = {
  async openDatabase() {
    const result = await dialog.showOpenDialog({ properties: ['openFile'], filters: SQLITE_FILES })
    if (!result.canceled && result.filePaths[0]) await switchDatabase(result.filePaths[0])
  },
  async newDemoDatabase() {
    const path = await chooseSavePath('callscope-demo.sqlite')
    if (path) await switchDatabase(path, true)
  },
  async exportSnapshot() {
    const answer = mainWindow ? await dialog.showMessageBox(mainWindow, snapshotChoiceBox) : await dialog.showMessageBox(snapshotChoiceBox)
    const choice = snapshotChoice(answer.response, new Date())
    if (!choice) return
    const path = await chooseSavePath(choice.fileName)
    if (!path) return
    try {
      const result = await database.current().database.snapshot(path, { ...choice.options, overwrite: true })
      void dialog.showMessageBox({ message: 'Snapshot written', detail: snapshotWrittenDetail(result) })
    } catch (error) {
      dialog.showErrorBox('Could not write the snapshot', error instanceof Error ? error.message : String(error))
    }
  },
  async openApiDocs() {
    const url = listener.status().url
    if (url) return void shell.openExternal(`${url}/docs`)
    const answer = await dialog.showMessageBox({
      message: 'The API docs are served by the HTTP listener, which is off.',
      detail: 'Turn it on in Settings → HTTP listener, then choose Help → API Docs again.',
      buttons: ['Open Settings', 'Cancel'],
    })
    if (answer.response === 0) void mainWindow?.webContents.executeJavaScript(`location.hash = '#/settings'`)
  },
}

async function createWindow(): Promise<void> {
  const saved = settings.get().windowBounds
  const window = new BrowserWindow(
    windowOptions(restoreBounds(saved, screen.getAllDisplays().map((d) => d.workArea)), join(import.meta.dirname, '../preload/index.cjs')),
  )
  mainWindow = window
  if (saved?.maximized) window.maximize()
  guardNavigation(window.webContents, appUrlPrefix, (url) => void shell.openExternal(url))
  window.on('close', () => settings.update({ windowBounds: { ...window.getNormalBounds(), maximized: window.isMaximized() } }))
  window.on('closed', () => {
    mainWindow = null
  })
  window.once('ready-to-show', () => window.show())
  if (devUrl) await window.loadURL(devUrl)
  else await window.loadFile(rendererIndex)
}

let quitting = false
/** Stops the listener and closes the database before the process exits. */
async function shutdown(): Promise<void> {
  backups.stop()
  await listener.stop()
  await database.close()
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
    // The last database opened, else the app's own (with demo data on the very first run).
    const last = settings.get().lastDatabase
    try {
      if (last && existsSync(last)) warnIfDamaged(await database.open(last))
      else warnIfDamaged(await database.open(join(app.getPath('userData'), 'callscope.sqlite'), { seedIfNew: true }))
    } catch (error) {
      // A store SQLite cannot open at all (its header overwritten): say so and what to run, rather than fail silently.
      dialog.showErrorBox('Could not open the database', error instanceof Error ? error.message : String(error))
      app.exit(1)
      return
    }
    backups.restart()
    registerIpc()
    if (settings.get().listener.enabled) await listener.configure(settings.get().listener)
    Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(menuActions)))
    await createWindow()
  })
  app.on('window-all-closed', () => app.quit())
  app.on('before-quit', (event) => {
    if (quitting) return
    quitting = true
    event.preventDefault()
    void shutdown().finally(() => app.quit())
  })
}
