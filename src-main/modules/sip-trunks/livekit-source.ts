import { SipClient, type SIPInboundTrunkInfo, TwirpError } from 'livekit-server-sdk'

/** Where and how to reach a LiveKit server's API. */
export interface LiveKitConnection {
  url: string
  apiKey: string
  apiSecret: string
}

/** The environment variables the LiveKit SDKs and CLI read. */
export const LIVEKIT_ENV = ['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET'] as const

export type LiveKitConfig =
  | { kind: 'none' }
  | { kind: 'incomplete'; missing: string[] }
  | { kind: 'ready'; connection: LiveKitConnection }

/** Reads the LiveKit connection; explicit values win over the environment, an empty string counts as unset. */
export function resolveLiveKitConfig(
  explicit: Partial<LiveKitConnection> | null | undefined,
  env: Record<string, string | undefined>,
): LiveKitConfig {
  const pick = (value: string | undefined, name: string) => (value ?? env[name] ?? '').trim()
  const url = pick(explicit?.url, 'LIVEKIT_URL')
  const apiKey = pick(explicit?.apiKey, 'LIVEKIT_API_KEY')
  const apiSecret = pick(explicit?.apiSecret, 'LIVEKIT_API_SECRET')
  const values = [url, apiKey, apiSecret]
  if (values.every((v) => v === '')) return { kind: 'none' }
  const missing = LIVEKIT_ENV.filter((_, i) => values[i] === '')
  if (missing.length > 0) return { kind: 'incomplete', missing: [...missing] }
  return { kind: 'ready', connection: { url, apiKey, apiSecret } }
}

/** The live listing failed; `message` is safe to show (no credentials). */
export class LiveKitUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'LiveKitUnavailableError'
  }
}

const MAX_DETAIL = 200
const clip = (text: string) => {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length > MAX_DETAIL ? `${oneLine.slice(0, MAX_DETAIL - 1)}…` : oneLine
}

/**
 * Lists the inbound trunks of a LiveKit server through the official SDK
 * (`POST {url}/twirp/livekit.SIP/ListSIPInboundTrunk`, JSON, admin SIP grant in a bearer JWT).
 * Any failure, including a timeout, becomes a LiveKitUnavailableError with a readable reason.
 */
export async function listLiveKitInboundTrunks(
  connection: LiveKitConnection,
  timeoutMs: number,
): Promise<SIPInboundTrunkInfo[]> {
  let client: SipClient
  try {
    client = new SipClient(connection.url, connection.apiKey, connection.apiSecret, {
      requestTimeout: timeoutMs / 1000,
      // Region failover retries other hosts; it would break the time budget of one listing.
      failover: false,
    })
  } catch (error) {
    throw new LiveKitUnavailableError(`LiveKit client could not be created: ${describe(error)}`, { cause: error })
  }
  let timer: NodeJS.Timeout | undefined
  // The SDK bounds the HTTP exchange; this bounds everything around it as well.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new LiveKitUnavailableError(`LiveKit did not answer within ${timeoutMs} ms`)),
      timeoutMs + 250,
    )
  })
  try {
    return await Promise.race([client.listSipInboundTrunk(), deadline])
  } catch (error) {
    if (error instanceof LiveKitUnavailableError) throw error
    throw new LiveKitUnavailableError(reasonFor(error, timeoutMs), { cause: error })
  } finally {
    clearTimeout(timer)
  }
}

function reasonFor(error: unknown, timeoutMs: number): string {
  if (error instanceof TwirpError) {
    const status = `${error.status}${error.name && error.name !== 'Error' ? ` ${error.name}` : ''}`
    const detail = error.message ? `: ${clip(error.message)}` : ''
    if (error.status === 401 || error.status === 403) return `LiveKit rejected the API key or secret (${status}${detail})`
    return `LiveKit answered ${status}${detail}`
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `LiveKit did not answer within ${timeoutMs} ms`
  }
  if (error instanceof SyntaxError) return `LiveKit's answer is not valid JSON: ${clip(error.message)}`
  if (error instanceof Error && /cannot decode/i.test(error.message)) {
    return `LiveKit's answer is not a ListSIPInboundTrunk response: ${clip(error.message)}`
  }
  if (error instanceof TypeError && (error as { code?: unknown }).code === 'ERR_INVALID_URL') {
    return 'LiveKit URL is not a valid http(s) or ws(s) URL'
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    return `LiveKit could not be reached: ${describe(error.cause ?? error)}`
  }
  return `LiveKit listing failed: ${describe(error)}`
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0])
  if (error instanceof Error) return clip(error.message || error.name)
  return clip(String(error))
}
