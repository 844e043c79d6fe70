/**
 * What a failed request to a Callscope server (a team server: the desktop app's connection,
 * `callscope push`) means for the user, and what to do about it. `trustHint` says how to trust a
 * certificate no known authority signed, in the words of the caller's own option.
 */
export function describeConnectionError(url: string, error: unknown, trustHint: string): string {
  const code = (error as NodeJS.ErrnoException).code ?? ''
  if (code === 'ECONNREFUSED') return `Nothing answers at ${url}: check that the team server runs (callscope serve) and that the address and port are right`
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${new URL(url).hostname} is not a known host name: check the address`
  if (code === 'ECONNRESET' && url.startsWith('http:')) return `${url} closed the connection (ECONNRESET): if the server speaks TLS, give its https:// address`
  if (code === 'ETIMEDOUT' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `${url} cannot be reached (${code}): check the network or VPN`
  if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS/.test(code)) {
    return `The certificate of ${url} is not trusted (${code}): ${trustHint}, or ask its admin for one signed by a known authority`
  }
  if (code === 'EPROTO' || /wrong version number|packet length too long/i.test(String((error as Error).message))) {
    return `${url} does not speak this protocol: try http:// instead of https:// (or the reverse)`
  }
  return `${url} failed: ${(error as Error).message}`
}
