import type { AckMessage, FeedMessage } from '../../lib/worker-feed'
import type { CopyBatch } from './copy-batches'
import type { PackedBatch } from './parsed-batches'

/** How the worker sends rows: packed for SQLite's writer thread, COPY text for a PostgreSQL store. */
export type BatchEncoding = 'packed' | 'copy'

/** Main thread → parse worker: the file's bytes in order, its end, and "batch written" (lib/worker-feed.ts). */
export type ToWorker = { type: 'chunk'; chunk: Uint8Array } | { type: 'end' } | AckMessage

/** What a parse worker says of its failure: whether the file, not the parser, is at fault. */
export interface ParseFailure {
  formatError: boolean
}

/** Parse worker → main thread: the feed's batches, end and failure, and "chunk taken" (flow control). */
export type FromWorker = FeedMessage<PackedBatch | CopyBatch, ParseFailure> | ConsumedMessage
export interface ConsumedMessage {
  type: 'consumed'
}
