import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { BlockList, isIP } from 'node:net'

/*
 * Where a test-send may go. A URL typed into the console or the CLI is sent from the user's laptop,
 * inside their network: without a check, "test my webhook" could POST to the router's admin page,
 * a cloud metadata address (169.254.169.254) or a service on loopback. So loopback, private,
 * link-local, shared (CGNAT), multicast and reserved addresses are refused unless the user allows
 * them (Settings or `--allow-private`; docs/api.md, "Where test-sends may go").
 *
 * The check runs where the connection is made: the request's own DNS lookup is wrapped, so the
 * address checked is the address connected to, and a name that resolves to a public address for
 * a check and to 127.0.0.1 for the connection (DNS rebinding) gains nothing.
 */

const BLOCKED = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv4')
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b:1::', 48], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) BLOCKED.addSubnet(net, prefix, 'ipv6')

/** An IPv4 address inside IPv6 (::ffff:a.b.c.d, NAT64 64:ff9b::a.b.c.d): judged as the IPv4 address. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
  if (match) return match[1]!
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address)
  if (!hex) return null
  const [hi, lo] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)]
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`
}

/** Whether an address is loopback, private, link-local or otherwise not a public Internet address. */
export function isPrivateAddress(address: string): boolean {
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null
  if (v4) return BLOCKED.check(v4, 'ipv4')
  const family = isIP(address)
  if (family === 0) return true
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6')
}

/** A refusal by this guard: never retried (the answer would not change), and said in words. */
export class BlockedTargetError extends Error {
  readonly code = 'EBLOCKED'
  constructor(host: string, address: string) {
    super(
      `${host === address ? address : `${host} resolves to ${address}, which`} is a loopback, private or link-local address; ` +
        'allow private targets in the tenant page\'s Webhooks settings (or pass --allow-private) to send there',
    )
    this.name = 'BlockedTargetError'
  }
}

/** The hostname as the socket layer wants it: IPv6 literals without brackets. */
export const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '')

/** Refuses an address literal up front (no lookup happens for those). */
export function checkLiteral(url: URL, allowPrivate: boolean): void {
  const host = bareHost(url)
  if (!allowPrivate && isIP(host) !== 0 && isPrivateAddress(host)) throw new BlockedTargetError(host, host)
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * A `lookup` for http(s).request that refuses names resolving to a private address (any of them:
 * the socket may try each). Node's connection code asks for every address (`all: true`) to race
 * IPv4 and IPv6; the single-address form is answered too.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const list = addresses as LookupAddress[]
      const blocked = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address))
      if (blocked) return callback(new BlockedTargetError(hostname, blocked.address) as NodeJS.ErrnoException, [])
      if (options.all) return callback(null, list)
      const first = list[0]
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), [])
      callback(null, first.address, first.family)
    })
  }
}
