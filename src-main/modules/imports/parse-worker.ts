import { PassThrough } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import type { ImportFormat } from './import-format'
import { parsedBatches } from './parsed-batches'
import type { FromWorker, ToWorker } from './parse-protocol'
import { ImportFormatError } from './record-readers'

/**
 * Worker entry: parses and validates the chunks the main thread sends (parsed-batches.ts) and
 * posts the batches back, at most MAX_BATCHES_AHEAD ahead of the writer so memory stays flat.
 */
const { format, batchSize } = workerData as { format: ImportFormat; batchSize: number }
const port = parentPort!
const post = (message: FromWorker) => port.postMessage(message)
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
    post({ type: 'batch', batch })
    unacknowledged++
    while (unacknowledged >= MAX_BATCHES_AHEAD) await new Promise<void>((resolve) => (wake = resolve))
  }
  post({ type: 'done' })
} catch (error) {
  post({ type: 'failed', message: (error as Error).message, formatError: error instanceof ImportFormatError })
}
port.close()
