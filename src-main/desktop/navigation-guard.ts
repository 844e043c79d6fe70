/** The parts of Electron's WebContents the guard uses, so it can be tested under Node. */
export interface GuardedContents {
  on(event: 'will-navigate' | 'will-attach-webview', listener: (event: { preventDefault(): void }, url: string) => void): unknown
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void
}

/** Only web links leave the app, and only to the user's browser. */
export const isExternalLink = (url: string): boolean => {
  try {
    const { protocol } = new URL(url)
    return protocol === 'https:' || protocol === 'http:'
  } catch {
    return false
  }
}

/**
 * The window never leaves the app's own page: navigations elsewhere are stopped, new windows are
 * never opened, and http(s) links go to the default browser (shell.openExternal). Other schemes
 * (file:, javascript:, custom protocols) go nowhere.
 */
export function guardNavigation(contents: GuardedContents, appUrlPrefix: string, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (url.startsWith(appUrlPrefix)) return
    event.preventDefault()
    if (isExternalLink(url)) openExternal(url)
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) openExternal(url)
    return { action: 'deny' }
  })
}
