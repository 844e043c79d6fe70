// A pull's fetch worker (src-main/modules/pull/fetch-worker.ts) that dies once it has handed over
// three windows with records, as a crash or running out of memory would end it: exit code 9,
// nothing said.
import { deserialize } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
const post = parentPort.postMessage.bind(parentPort)
let withRecords = 0
parentPort.postMessage = (message, transfer) => {
  if (message.type === 'batch' && deserialize(message.batch.rows.packed).length > 0 && ++withRecords > 3) process.exit(9)
  post(message, transfer)
}
await import('../../src-main/modules/pull/fetch-worker.ts')
