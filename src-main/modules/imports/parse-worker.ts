import { PassThrough } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import type { ImportFormat } from './import-format'
import { packBatch, packedBuffers, parsedBatches } from './parsed-batches'
import type { FromWorker, ToWorker } from './parse-protocol'
import { ImportFormatError } from './record-readers'
import { BACKGROUND_NICE, lowerWorkerPriority } from '../../lib/thread-priority'

/**
 * Worker entry: parses and validates the chunks the main thread sends (parsed-batches.ts) and
 * posts the batches back, at most MAX_BATCHES_AHEAD ahead of the writer so memory stays flat.
 */
const { format, batchSize } = workerData as { format: ImportFormat; batchSize: number }
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
    const packed = packBatch(batch)
    // The bytes move to the main thread rather than being copied, when they fill their buffer alone.
    post({ type: 'batch', batch: packed }, packedBuffers(packed))
    unacknowledged++
    while (unacknowledged >= MAX_BATCHES_AHEAD) await new Promise<void>((resolve) => (wake = resolve))
  }
  post({ type: 'done' })
} catch (error) {
  post({ type: 'failed', message: (error as Error).message, formatError: error instanceof ImportFormatError })
}
port.close()
