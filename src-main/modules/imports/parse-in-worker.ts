import type { Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { readFeed, wakeSignal, workerEntry } from '../../lib/worker-feed'
import type { ImportFormat } from './import-format'
import type { CopyBatch } from './copy-batches'
import type { BatchEncoding, ConsumedMessage, ParseFailure, ToWorker } from './parse-protocol'
import { type AnyBatch, type PackedBatch, parsedBatches } from './parsed-batches'
import { ImportFormatError } from './record-readers'

/**
 * Chunks (64 KiB from a file) sent ahead of what the worker has taken: 16 MiB bounds memory and is
 * enough for the worker to parse on while this thread is busy committing a batch of 20,000.
 */
const MAX_CHUNKS_AHEAD = 256

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
  const pump = (async () => {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        if (!reading) return
        while (sent - taken >= MAX_CHUNKS_AHEAD && reading) await wait()
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
