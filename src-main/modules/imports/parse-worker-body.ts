import { PassThrough } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import { feedPoster, movableBuffers } from '../../lib/worker-feed'
import type { ImportFormat } from './import-format'
import { copyBatch, type CopyBatch } from './copy-batches'
import { packBatch, type PackedBatch, type ParsedBatch, parsedBatches } from './parsed-batches'
import type { BatchEncoding, ConsumedMessage, ParseFailure, ToWorker } from './parse-protocol'
import { ImportFormatError } from './record-readers'

/**
 * The parse worker's work (its entry, parse-worker.ts, lowers the thread's priority first): parses and validates the chunks the main thread sends (parsed-batches.ts) and
 * posts the batches back (lib/worker-feed.ts), at most MAX_BATCHES_AHEAD ahead of the writer so memory stays flat.
 */
const { format, batchSize, encoding } = workerData as { format: ImportFormat; batchSize: number; encoding: BatchEncoding }
const port = parentPort!
const MAX_BATCHES_AHEAD = 16
// For a PostgreSQL store the rows leave as COPY text, for SQLite's writer as v8's serialisation;
// either way the bytes move to the main thread rather than being copied.
const feed = feedPoster<ParsedBatch, PackedBatch | CopyBatch, ParseFailure>(port, {
  maxAhead: MAX_BATCHES_AHEAD,
  pack: encoding === 'copy' ? copyBatch : packBatch,
  movable: (encoded) => movableBuffers('copy' in encoded ? encoded.copy : encoded.packed),
})

const input = new PassThrough()
port.on('message', (message: ToWorker) => {
  if (message.type === 'chunk') input.write(message.chunk, () => port.postMessage({ type: 'consumed' } satisfies ConsumedMessage))
  else if (message.type === 'end') input.end()
})

try {
  for await (const batch of parsedBatches(input, format, batchSize)) await feed.send(batch)
  feed.done()
} catch (error) {
  feed.fail({ message: (error as Error).message, formatError: error instanceof ImportFormatError })
}
port.close()
