import type { FetchLike } from 'eventsource'
import type { DesktopBridge } from '../../src-shared/ipc'

/** The path and query after /trpc of a tRPC request's URL, as the IPC channel carries it. */
const ipcPath = (input: string | URL | Request): string => {
  const url = new URL(input instanceof Request ? input.url : String(input))
  return `${url.pathname.replace(/^\/trpc/, '')}${url.search}`
}

/** Reads the console's source picker's choice (lib/source-scope.ts), null for every source. */
export type SourceChoice = () => string | null

/** The choice as the IPC request carries it. */
const withSource = (getSource: SourceChoice): { source?: string } => {
  const source = getSource()
  return source === null ? {} : { source }
}

/** A fetch that hands the request to the main process over IPC instead of the network. */
export function ipcFetch(bridge: DesktopBridge, getSource: SourceChoice = () => null): typeof fetch {
  return async (input, init) => {
    const answer = await bridge.trpc({
      url: ipcPath(input),
      method: init?.method === 'POST' ? 'POST' : 'GET',
      body: typeof init?.body === 'string' ? init.body : undefined,
      ...withSource(getSource),
    })
    return new Response(answer.body, { status: answer.status, headers: answer.headers })
  }
}

/**
 * The same for a subscription's event stream: the body arrives in chunks from the main process
 * while the subscription runs. Given to the EventSource that tRPC's subscription link opens.
 */
export function ipcStreamFetch(bridge: DesktopBridge, getSource: SourceChoice = () => null): FetchLike {
  return async (input, init) => {
    const encoder = new TextEncoder()
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null
    let ended = false
    const stream = bridge.trpcStream({ url: ipcPath(input), method: 'GET', ...withSource(getSource) }, (chunk) => {
      if (ended) return
      if (chunk === null) {
        ended = true
        controller?.close()
      } else controller?.enqueue(encoder.encode(chunk))
    })
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c
      },
      cancel: () => {
        ended = true
        stream.close()
      },
    })
    ;(init.signal as AbortSignal | undefined)?.addEventListener('abort', () => stream.close(), { once: true })
    const answer = await stream.opened
    // An error (refused, malformed) comes whole, as a normal response.
    if (answer.body) return new Response(answer.body, { status: answer.status, headers: answer.headers })
    return new Response(body, { status: answer.status, headers: answer.headers })
  }
}
