import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { menuTemplate, type MenuActions } from './app-menu'
import { guardNavigation, type GuardedContents } from './navigation-guard'
import { DEFAULT_SIZE, restoreBounds, windowOptions } from './window-options'

describe('the window', () => {
  it('isolates the renderer: sandboxed, no Node, web security on, no webviews', () => {
    const options = windowOptions({ x: 5, y: 6, width: 1000, height: 700 }, '/app/out/preload/index.cjs')
    expect(options.webPreferences).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    })
    expect(options).toMatchObject({ x: 5, y: 6, width: 1000, height: 700, show: false })
  })

  it('reopens where it was, unless that place is on a display that is gone', () => {
    const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }]
    const saved = { x: 100, y: 50, width: 1200, height: 800, maximized: false }
    expect(restoreBounds(saved, screen)).toEqual({ x: 100, y: 50, width: 1200, height: 800 })
    expect(restoreBounds({ ...saved, x: 2500 }, screen)).toEqual({ width: 1200, height: 800 })
    expect(restoreBounds(null, screen)).toEqual(DEFAULT_SIZE)
  })
})

class FakeContents extends EventEmitter implements GuardedContents {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler
  }
  /** Emits like Electron and says whether a listener prevented the default. */
  navigate(url: string): boolean {
    let prevented = false
    this.emit('will-navigate', { preventDefault: () => (prevented = true) }, url)
    return prevented
  }
}

describe('navigation', () => {
  const APP = 'file:///opt/callscope/resources/app.asar/out/renderer/index.html'
  const setup = () => {
    const contents = new FakeContents()
    const opened: string[] = []
    guardNavigation(contents, APP, (url) => opened.push(url))
    return { contents, opened }
  }

  it('stays on the app page and sends web links to the browser', () => {
    const { contents, opened } = setup()
    expect(contents.navigate(`${APP}#/logs`)).toBe(false)
    expect(contents.navigate('https://docs.example/voice')).toBe(true)
    expect(contents.navigate('file:///etc/passwd')).toBe(true)
    expect(contents.navigate('javascript:alert(1)')).toBe(true)
    expect(opened).toEqual(['https://docs.example/voice'])
  })

  it('never opens a window; only http(s) leaves, to the browser', () => {
    const { contents, opened } = setup()
    expect(contents.openHandler!({ url: 'http://127.0.0.1:8787/docs' })).toEqual({ action: 'deny' })
    expect(contents.openHandler!({ url: 'smb://share/x' })).toEqual({ action: 'deny' })
    expect(opened).toEqual(['http://127.0.0.1:8787/docs'])
  })

  it('refuses webviews', () => {
    const { contents } = setup()
    const event = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', event)
    expect(event.preventDefault).toHaveBeenCalled()
  })
})

describe('the application menu', () => {
  it('has File (open, new demo, export snapshot), View and Help (API docs) wired to the actions', () => {
    const actions: MenuActions = { openDatabase: vi.fn(), newDemoDatabase: vi.fn(), exportSnapshot: vi.fn(), openApiDocs: vi.fn() }
    const template = menuTemplate(actions, 'linux')
    expect(template.map((m) => m.label ?? m.role)).toEqual(['File', 'editMenu', 'View', 'Help'])
    const file = template[0]!.submenu as Array<{ label?: string; click?: () => void }>
    const click = (menu: Array<{ label?: string; click?: () => void }>, label: string) => menu.find((i) => i.label === label)!.click!()
    click(file, 'Open Database…')
    click(file, 'New Demo Database…')
    click(file, 'Save Snapshot…')
    click(template[3]!.submenu as Array<{ label?: string; click?: () => void }>, 'API Docs')
    for (const action of Object.values(actions)) expect(action).toHaveBeenCalledOnce()
    expect(menuTemplate(actions, 'darwin')[0]).toEqual({ role: 'appMenu' })
  })
})
