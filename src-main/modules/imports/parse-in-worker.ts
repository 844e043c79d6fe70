import type { Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { readFeed, wakeSignal, workerEntry } from '../../lib/worker-feed'
import type { ImportFormat } from './import-format'
import type { CopyBatch } from './copy-batches'
import type { BatchEncoding, ConsumedMessage, ParseFailure, ToWorker } from './parse-protocol'
import { type AnyBatch, type PackedBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'

/**
 * Chunks (64 KiB from a file or a socket) sent ahead of what the worker has taken: 16 MiB at most
 * bounds memory and keeps the worker parsing while this thread is busy elsewhere. The window opens
 * as the worker takes chunks (a slow start): while it is still loading its parser it takes none,
 * and reading a whole 16 MiB of an upload then, as fast as the socket gave it, kept the thread that
 * answers requests busy for about 0.2 s on end (`/healthz` waited up to 88 ms; docs/benchmarks.md,
 * "An import's upload and the main thread"). A window of 16 throughout cost a CLI import a tenth of its rate.
 */
const FIRST_CHUNKS_AHEAD = 16
const MAX_CHUNKS_AHEAD = 256
const chunksAhead = (taken: number) => Math.min(MAX_CHUNKS_AHEAD, FIRST_CHUNKS_AHEAD + taken)

/**
 * The same batches as `parsedBatches`, parsed and validated on a worker thread (parse-worker.ts,
 * fed and read as lib/worker-feed.ts says) while the caller writes the previous ones: on two cores
 * the import's JSON and schema work then costs the writer nothing. Without a worker entry (an
 * unusual bundle) it parses on this thread instead.
 */
export function parseInWorker(
  input: Readable,
  format: ImportFormat,
  batchSize: number,
  /** The worker's script, when not the default one (tests run the bundled one). */
  entry: URL | null = workerEntry(import.meta.url, 'parse-worker'),
): AsyncGenerator<AnyBatch> {
  return parseOnWorker(input, format, batchSize, entry, 'packed') as AsyncGenerator<AnyBatch>
}

/** parseInWorker for a PostgreSQL store: the worker sends its rows as COPY text (copy-batches.ts). */
export function parseInWorkerForCopy(input: Readable, format: ImportFormat, batchSize: number, entry: URL | null = workerEntry(import.meta.url, 'parse-worker')): AsyncGenerator<AnyBatch | CopyBatch> {
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

  // The reader below waits for the worker to take chunks, or for the feed to end.
  let taken = 0
  let failure: Error | null = null
  const { wait, wakeUp } = wakeSignal()
  const batches = readFeed<PackedBatch | CopyBatch, ParseFailure, ConsumedMessage>(worker, {
    failure: (m) => (m.formatError ? new ImportFormatError(m.message) : new Error(m.message)),
    stopped: (code) => new Error(`the parser stopped (exit code ${code})`),
    other: () => {
      taken++
      wakeUp()
    },
  })

  let sent = 0
  let reading = true
  // An input that breaks while the pump waits on the worker ends the wait: the loop then throws why.
  input.once('close', wakeUp)
  const pump = (async () => {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        if (!reading) return
        while (sent - taken >= chunksAhead(taken) && reading && !input.destroyed) await wait()
        if (!reading) return
        send({ type: 'chunk', chunk })
        sent++
      }
      send({ type: 'end' })
    } catch (error) {
      // The input broke: the worker is told to stop, and the feed below throws why.
      failure = error as Error
      await worker.terminate()
    }
  })()

  try {
    for await (const batch of batches) yield batch
  } catch (error) {
    throw failure ?? error
  } finally {
    reading = false
    wakeUp()
    // The rest of the input is not needed (done, or the file broke): stop reading it.
    if (!input.readableEnded) input.destroy()
    await batches.return(undefined)
    await pump
  }
}
