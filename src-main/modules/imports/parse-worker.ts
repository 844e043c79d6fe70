import { PassThrough } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import type { ImportFormat } from './import-format'
import { copyBatch, type CopyBatch } from './copy-batches'
import { movableBuffers, packBatch, type PackedBatch, parsedBatches } from './parsed-batches'
import type { BatchEncoding, FromWorker, ToWorker } from './parse-protocol'
import { ImportFormatError } from './record-readers'
import { BACKGROUND_NICE, lowerWorkerPriority } from '../../lib/thread-priority'

/**
 * Worker entry: parses and validates the chunks the main thread sends (parsed-batches.ts) and
 * posts the batches back, at most MAX_BATCHES_AHEAD ahead of the writer so memory stays flat.
 */
const { format, batchSize, encoding } = workerData as { format: ImportFormat; batchSize: number; encoding: BatchEncoding }
const port = parentPort!
lowerWorkerPriority(BACKGROUND_NICE)
const post = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)
const MAX_BATCHES_AHEAD = 16

const input = new PassThrough()
let unacknowledged = 0
let wake: (() => void) | null = null

port.on('message', (message: ToWorker) => {
  if (message.type === 'chunk') input.write(message.chunk, () => post({ type: 'consumed' }))
  else if (message.type === 'end') input.end()
  else {
    unacknowledged--
    wake?.()
  }
})

try {
  for await (const batch of parsedBatches(input, format, batchSize)) {
    // For a PostgreSQL store the rows leave as COPY text, for SQLite's writer as v8's serialisation.
    const encoded: PackedBatch | CopyBatch = encoding === 'copy' ? copyBatch(batch) : packBatch(batch)
    const bytes = 'copy' in encoded ? encoded.copy : encoded.packed
    // The bytes move to the main thread rather than being copied, when they fill their buffer alone.
    post({ type: 'batch', batch: encoded }, movableBuffers(bytes))
    unacknowledged++
    while (unacknowledged >= MAX_BATCHES_AHEAD) await new Promise<void>((resolve) => (wake = resolve))
  }
  post({ type: 'done' })
} catch (error) {
  post({ type: 'failed', message: (error as Error).message, formatError: error instanceof ImportFormatError })
}
port.close()
