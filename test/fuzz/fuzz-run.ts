import fc from 'fast-check'
import type { Agent } from 'node:http'
import type { Exchange } from './answers'
import { violationsOf } from './checks'
import type { FuzzServer } from './fuzz-server'
import { documentOperations, EXTENSION_OPERATIONS, type OpenApiDocument } from './operations'
import { createPool, sendPooled } from './pool-client'
import { sendRaw } from './raw-client'
import { type FuzzRequest, requestArbitrary } from './requests'
import { count, newTally, type Tally } from './tally'

export interface FuzzOptions {
  /** Requests to generate; a raw one may pipeline several, so more HTTP requests are sent (and counted). */
  runs: number
  seed: number
  /** Keep-alive connections of the pool. */
  maxSockets?: number
  /** Requests generated and sent together, so the pool's connections are busy at once. */
  batch?: number
  /** Stop generating after this long; what was sent is still checked and counted. */
  timeLimitMs?: number
  onProgress?: (tally: Tally) => void
}

export interface FuzzResult {
  tally: Tally
  elapsedMs: number
  alive: boolean
  /** Every operation the requests were generated for (the document's and the extensions). */
  operations: string[]
}

/** Runs the generated requests against `server`, checks every exchange and counts what it finds. */
export async function runFuzz(server: FuzzServer, options: FuzzOptions): Promise<FuzzResult> {
  const started = performance.now()
  const batch = options.batch ?? 8
  const agent = createPool(options.maxSockets ?? 4)
  const tally = newTally()
  const operations = [...documentOperations(await servedDocument(server)), ...EXTENSION_OPERATIONS]
  const batches = fc.array(requestArbitrary(operations, server.context, server.port), { minLength: batch, maxLength: batch })
  // Every violation is counted and the run goes on: a stateful server makes shrinking unreliable,
  // and the seed alone replays the whole run.
  const property = fc.asyncProperty(batches, async (requests) => {
    const timed = await Promise.all(requests.map((r) => timedSend(agent, server, r)))
    requests.forEach((r, i) => count(tally, r, timed[i]!.exchange, violationsOf(r, timed[i]!.exchange, server.consoleBuilt), timed[i]!.ms))
    options.onProgress?.(tally)
  })
  const watch = watchServerFaults(tally)
  try {
    await fc.assert(property, { numRuns: Math.ceil(options.runs / batch), seed: options.seed, interruptAfterTimeLimit: options.timeLimitMs, markInterruptAsFailure: false })
  } finally {
    watch.stop()
    agent.destroy()
  }
  return { tally, elapsedMs: performance.now() - started, alive: await healthy(server), operations: operations.map((op) => op.id) }
}

async function timedSend(agent: Agent, server: FuzzServer, request: FuzzRequest): Promise<{ exchange: Exchange; ms: number }> {
  const started = performance.now()
  const exchange = await send(agent, server, request)
  return { exchange, ms: performance.now() - started }
}

function send(agent: Agent, server: FuzzServer, request: FuzzRequest): Promise<Exchange> {
  return request.transport === 'raw' ? sendRaw(server.host, server.port, request.raw) : sendPooled(agent, server.host, server.port, request.http)
}

async function servedDocument(server: FuzzServer): Promise<OpenApiDocument> {
  const response = await fetch(`${server.url}/openapi.json`)
  if (response.status !== 200) throw new Error(`GET /openapi.json answered ${response.status}`)
  return (await response.json()) as OpenApiDocument
}

/** GET /healthz (the pool is gone: a new connection). */
async function healthy(server: FuzzServer): Promise<boolean> {
  try {
    const response = await fetch(`${server.url}/healthz`)
    return response.status === 200 && ((await response.json()) as { status?: string }).status === 'ok'
  } catch {
    return false
  }
}

/**
 * Server-side faults no client sees: an error logged for a request whose client was gone, an
 * uncaught exception or rejection in the process (the listener runs in this one).
 */
function watchServerFaults(tally: Tally): { stop(): void } {
  const original = console.error
  const record = (what: string) => {
    tally.serverErrors++
    if (tally.violations.length < 50) tally.violations.push(what.slice(0, 400))
  }
  // The server logs only faults to stderr (an unhandled error, the adaptor's failed stream), so every line counts.
  console.error = (...args: unknown[]) => {
    record(`server logged: ${args.map(String).join(' ')}`)
    original(...args)
  }
  const onCrash = (error: unknown) => record(`uncaught in the server process: ${String((error as Error)?.stack ?? error)}`)
  process.on('uncaughtException', onCrash)
  process.on('unhandledRejection', onCrash)
  return {
    stop() {
      console.error = original
      process.off('uncaughtException', onCrash)
      process.off('unhandledRejection', onCrash)
    },
  }
}
