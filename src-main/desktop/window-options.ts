import type { BrowserWindowConstructorOptions } from 'electron'
import type { WindowBounds } from './desktop-settings'

export const DEFAULT_SIZE = { width: 1280, height: 820 }

/** A display's usable area, as Electron's screen module reports it. */
export interface WorkArea {
  x: number
  y: number
  width: number
  height: number
}

/**
 * Remembered bounds, if they still fit on one of the displays (a monitor may be gone since);
 * otherwise the default size, centred by Electron.
 */
export function restoreBounds(saved: WindowBounds | null, displays: WorkArea[]): Partial<WindowBounds> {
  if (!saved) return DEFAULT_SIZE
  const visible = displays.some((d) => saved.x >= d.x && saved.y >= d.y && saved.x + 100 <= d.x + d.width && saved.y + 100 <= d.y + d.height)
  return visible ? { x: saved.x, y: saved.y, width: saved.width, height: saved.height } : { width: saved.width, height: saved.height }
}

/**
 * The one window. The renderer is an untrusted web page as far as the main process is concerned:
 * no Node, isolated and sandboxed preload, web security on, no webviews; its only door is the
 * tRPC bridge the preload exposes.
 */
export function windowOptions(bounds: Partial<WindowBounds>, preload: string): BrowserWindowConstructorOptions {
  return {
    ...DEFAULT_SIZE,
    ...bounds,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Callscope',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  }
}
