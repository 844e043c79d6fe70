import { isIP } from 'node:net'

/**
 * DNS-rebinding protection: a page on evil.example that resolves its name to 127.0.0.1 reaches
 * the listener with `Host: evil.example`. Only names that mean this listener are accepted.
 */
export function createHostGuard(bindHost: string, extraHosts: readonly string[] = []) {
  const wildcard = bindHost === '0.0.0.0' || bindHost === '::'
  const names = new Set(['localhost', '127.0.0.1', '::1', bindHost.toLowerCase(), ...extraHosts.map((h) => h.toLowerCase())])
  let port = 0
  return {
    setPort(value: number) {
      port = value
    },
    allows(hostHeader: string | undefined): boolean {
      if (!hostHeader) return false
      const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(hostHeader.trim().toLowerCase())
      if (!match) return false
      const hostname = match[1]!.replace(/^\[|\]$/g, '')
      const headerPort = match[2] ? Number(match[2]) : 80
      if (headerPort !== port) return false
      if (names.has(hostname) || hostname.startsWith('127.')) return true
      // Bound to every interface on the user's explicit request: any address literal is fine,
      // names still are not (they are what rebinding attacks use).
      return wildcard && isIP(hostname) !== 0
    },
  }
}

export type HostGuard = ReturnType<typeof createHostGuard>
