/**
 * The bearer token of a browser tab. `callscope serve` prints a sign-in URL that carries the token
 * in the fragment (never sent to the server); the console moves it into sessionStorage at start
 * and removes it from the address bar, so it is kept for this tab only and never lands in links.
 */
const KEY = 'callscope.token'

export function captureTokenFromUrl(location: Location = window.location, history: History = window.history): void {
  const match = /(?:^#|&)token=([^&]+)/.exec(location.hash)
  if (!match) return
  sessionStorage.setItem(KEY, decodeURIComponent(match[1]!))
  const rest = location.hash.replace(/(^#|&)token=[^&]+/, '$1').replace(/^#&/, '#')
  history.replaceState(null, '', `${location.pathname}${location.search}${rest === '#' ? '#/' : rest}`)
}

export const getToken = (): string | null => sessionStorage.getItem(KEY)
export const setToken = (token: string): void => sessionStorage.setItem(KEY, token.trim())
export const clearToken = (): void => sessionStorage.removeItem(KEY)
