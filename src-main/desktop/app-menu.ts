import type { MenuItemConstructorOptions } from 'electron'

export interface MenuActions {
  openDatabase(): void
  newDemoDatabase(): void
  exportSnapshot(): void
  openApiDocs(): void
}

/**
 * The application menu as a template (Menu.buildFromTemplate in index.ts). File holds what moves
 * data in and out; View keeps Electron's standard roles (reload, zoom, full screen, dev tools).
 */
export function menuTemplate(actions: MenuActions, platform: NodeJS.Platform = process.platform): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin'
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Database…', accelerator: 'CmdOrCtrl+O', click: () => actions.openDatabase() },
        { label: 'New Demo Database…', accelerator: 'CmdOrCtrl+N', click: () => actions.newDemoDatabase() },
        { type: 'separator' },
        { label: 'Save Snapshot…', accelerator: 'CmdOrCtrl+Shift+S', click: () => actions.exportSnapshot() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
    },
    { label: 'Help', submenu: [{ label: 'API Docs', click: () => actions.openApiDocs() }] },
  ]
}
