import { type ExplorerState, explorerStateToParams } from '../../../src-shared/explorer-state'

/** The hash route of a state: what opens the view in any console, the desktop app's included. */
export const viewRoute = (state: ExplorerState) => {
  const params = explorerStateToParams(state).toString()
  return `#/logs${params ? `?${params}` : ''}`
}

/**
 * The console route a pasted link names: the part after `#` of a console address
 * (`http://127.0.0.1:8787/console/#/logs?query=…`), a bare `#/logs?…`, or `/logs?…`. Null otherwise.
 */
export function routeOfLink(text: string): string | null {
  const link = text.trim()
  const hash = link.indexOf('#/')
  const route = hash >= 0 ? link.slice(hash + 1) : link.startsWith('/') ? link : null
  // The sign-in fragment (#token=…) is not a route, and a token is never opened from a pasted link.
  return route && /^\/[a-z]/i.test(route) ? route : null
}
