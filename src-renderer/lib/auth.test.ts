// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest'
import { captureTokenFromUrl, clearToken, getToken, setToken } from './auth'

beforeEach(() => {
  sessionStorage.clear()
  history.replaceState(null, '', '/console/')
})

describe('console token', () => {
  it('moves the token from the sign-in link into this tab and out of the address bar', () => {
    history.replaceState(null, '', '/console/#token=cs_session_abc123')
    captureTokenFromUrl()
    expect(getToken()).toBe('cs_session_abc123')
    expect(location.hash).toBe('#/')
    expect(location.href).not.toContain('cs_session_abc123')
  })

  it('leaves other fragments alone', () => {
    history.replaceState(null, '', '/console/#/logs?level=error')
    captureTokenFromUrl()
    expect(getToken()).toBeNull()
    expect(location.hash).toBe('#/logs?level=error')
  })

  it('keeps a pasted token trimmed, and forgets it on sign-out', () => {
    setToken('  cs_pasted  ')
    expect(getToken()).toBe('cs_pasted')
    clearToken()
    expect(getToken()).toBeNull()
  })
})
