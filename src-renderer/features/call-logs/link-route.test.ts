import { describe, expect, it } from 'vitest'
import { parseExplorerParams } from '../../../src-shared/explorer-state'
import { routeOfLink, viewRoute } from './link-route'

describe('links to a view', () => {
  it('writes the hash route of a state, and reads it back from every form a link takes', () => {
    const state = { query: 'level:error "rate limit"', from: 'now-24h', cols: ['time', 'message'], tz: 'Europe/Paris', line: 'l-1' }
    const route = viewRoute(state)
    expect(route).toBe('#/logs?query=level%3Aerror+%22rate+limit%22&from=now-24h&cols=time%2Cmessage&tz=Europe%2FParis&line=l-1')
    expect(viewRoute({})).toBe('#/logs')
    for (const link of [`http://127.0.0.1:8787/console/${route}`, route, `  ${route.slice(1)} `]) {
      const opened = routeOfLink(link)
      expect(opened, link).toBe(route.slice(1))
      expect(parseExplorerParams(new URLSearchParams(opened!.split('?')[1])).state).toEqual(state)
    }
  })

  it('opens nothing that is not a console route: the sign-in fragment, other text', () => {
    for (const text of ['', 'timeout', 'http://127.0.0.1:8787/console/#token=cs_abc', 'http://example.com/', '#', '//evil.example/x']) expect(routeOfLink(text), text).toBeNull()
  })
})
