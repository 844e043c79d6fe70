import type { CopyBatch } from './copy-batches'
import type { PackedBatch } from './parsed-batches'

/** How the worker sends rows: packed for SQLite's writer thread, COPY text for a PostgreSQL store. */
export type BatchEncoding = 'packed' | 'copy'

/** Main thread → parse worker: the file's bytes in order, its end, and "batch written". */
export type ToWorker = { type: 'chunk'; chunk: Uint8Array } | { type: 'end' } | { type: 'ack' }

/** Parse worker → main thread: a batch, "chunk taken" (flow control), the end, or why it stopped. */
export type FromWorker =
  | { type: 'batch'; batch: PackedBatch | CopyBatch }
  | { type: 'consumed' }
  | { type: 'done' }
  | { type: 'failed'; message: string; formatError: boolean }
