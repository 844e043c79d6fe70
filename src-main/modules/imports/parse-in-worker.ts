import { existsSync } from 'node:fs'
import type { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { ImportFormat } from './import-format'
import type { CopyBatch } from './copy-batches'
import type { BatchEncoding, FromWorker, ToWorker } from './parse-protocol'
import { type AnyBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'

/**
 * Chunks (64 KiB from a file) sent ahead of what the worker has taken: 16 MiB bounds memory and is
 * enough for the worker to parse on while this thread is busy committing a batch of 20,000.
 */
const MAX_CHUNKS_AHEAD = 256

/**
 * Where the worker's code is: next to this module when it runs from source (the CLI and tests run
 * TypeScript through tsx, which parse-worker.source.mjs registers in the worker), or out/main/parse-worker.js in the
 * electron-vite bundle, a build input of its own (electron.vite.config.ts).
 */
function workerEntry(): URL | null {
  const fromSource = import.meta.url.endsWith('.ts')
  const url = new URL(fromSource ? './parse-worker.source.mjs' : './parse-worker.js', import.meta.url)
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : null
}

/**
 * The same batches as `parsedBatches`, parsed and validated on a worker thread while the caller
 * writes the previous ones: on two cores the import's JSON and schema work then costs the writer
 * nothing. Without a worker entry (an unusual bundle) it parses on this thread instead.
 */
export function parseInWorker(
  input: Readable,
  format: ImportFormat,
  batchSize: number,
  /** The worker's script, when not the default one (tests run the bundled one). */
  entry: URL | null = workerEntry(),
): AsyncGenerator<AnyBatch> {
  return parseOnWorker(input, format, batchSize, entry, 'packed') as AsyncGenerator<AnyBatch>
}

/** parseInWorker for a PostgreSQL store: the worker sends its rows as COPY text (copy-batches.ts). */
export function parseInWorkerForCopy(input: Readable, format: ImportFormat, batchSize: number, entry: URL | null = workerEntry()): AsyncGenerator<AnyBatch | CopyBatch> {
  return parseOnWorker(input, format, batchSize, entry, 'copy')
}

async function* parseOnWorker(input: Readable, format: ImportFormat, batchSize: number, entry: URL | null, encoding: BatchEncoding): AsyncGenerator<AnyBatch | CopyBatch> {
  if (!entry) {
    yield* parsedBatches(input, format, batchSize)
    return
  }
  const worker = new Worker(entry, {
    workerData: { format, batchSize, encoding },
    // Parsing allocates fast and keeps little: with a young generation of 96 MiB the worker
    // collects garbage far less often, which took about a seventh off its time (docs/benchmarks.md).
    resourceLimits: { maxYoungGenerationSizeMb: 96 },
  })
  const send = (message: ToWorker) => worker.postMessage(message)

  const inbox: FromWorker[] = []
  let failure: Error | null = null
  // Both the reader below and the consumer wait for the worker's news.
  let waiting: Array<() => void> = []
  const wakeUp = () => {
    const resolvers = waiting
    waiting = []
    for (const resolve of resolvers) resolve()
  }
  const stop = (error: Error) => {
    failure ??= error
    wakeUp()
  }
  let taken = 0
  worker.on('message', (message: FromWorker) => {
    if (message.type === 'consumed') taken++
    else inbox.push(message)
    wakeUp()
  })
  worker.on('error', stop)
  worker.on('exit', (code) => stop(new Error(`the parser stopped (exit code ${code})`)))
  const waitForNews = () => new Promise<void>((resolve) => waiting.push(resolve))

  let sent = 0
  let reading = true
  const pump = (async () => {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        if (!reading) return
        while (sent - taken >= MAX_CHUNKS_AHEAD && !failure && reading) await waitForNews()
        if (failure || !reading) return
        send({ type: 'chunk', chunk })
        sent++
      }
      send({ type: 'end' })
    } catch (error) {
      stop(error as Error)
    }
  })()

  try {
    for (;;) {
      const message = inbox.shift()
      if (!message) {
        if (failure) throw failure
        await waitForNews()
        continue
      }
      if (message.type === 'batch') {
        yield message.batch
        send({ type: 'ack' })
      } else if (message.type === 'done') return
      else if (message.type === 'failed') throw message.formatError ? new ImportFormatError(message.message) : new Error(message.message)
    }
  } finally {
    reading = false
    wakeUp()
    // The rest of the input is not needed (done, or the file broke): stop reading it.
    if (!input.readableEnded) input.destroy()
    worker.removeAllListeners('exit')
    await worker.terminate()
    await pump
  }
}
