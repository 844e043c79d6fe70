import { createWriteStream, renameSync } from 'node:fs'
import type { Writable } from 'node:stream'
import { StoreDamagedError, StoreFaultError, StoreFullError } from '../../../src-shared/store-faults'
import type { ExportChunk } from './call-logs.export'

/*
 * An export written somewhere that has no cut transfer to show a failure (issue 36, point 3): a
 * file (the desktop's save dialog, `callscope export logs --out`) or standard output. A failure
 * part way says how many rows were written before it and where they are, and a file that is not
 * whole never has the name asked for: it is written as NAME.partial and renamed when complete.
 */

/** Where an export was going, for the message of one that stopped. */
type Target = { file: string } | { stream: string }

/** `cause` with what was written before it: still a StoreFaultError (503/507, what to run) when it was one. */
function stoppedAfter(cause: unknown, rows: number, target: Target): Error {
  const n = rows.toLocaleString('en-US')
  const where =
    'file' in target
      ? `${n} ${rows === 1 ? 'row' : 'rows'} before it are in ${target.file}.partial; ${target.file} was not written`
      : `${n} ${rows === 1 ? 'row' : 'rows'} were written to ${target.stream} before it, and nothing after`
  const message = `The export stopped part way (${where}): ${cause instanceof Error ? cause.message : String(cause)}`
  const error =
    cause instanceof StoreDamagedError
      ? new StoreDamagedError(message, cause.details)
      : cause instanceof StoreFullError
        ? new StoreFullError(message, cause.details)
        : cause instanceof StoreFaultError
          ? cause
          : new Error(message)
  return Object.assign(error, { cause, rowsWritten: rows })
}

/** Writes one chunk, waiting until the stream has taken it (a full pipe or disk holds the export back, not memory). */
function write(out: Writable, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(bytes, (error) => (error ? reject(error) : resolve()))
  })
}

/** The rows written, counted after each chunk's bytes were taken by `out`. */
async function writeChunks(chunks: AsyncIterable<ExportChunk>, out: Writable, written: { rows: number }): Promise<void> {
  // A failed write reaches its callback; the 'error' event it also emits must not end the process.
  const ignore = () => {}
  out.on('error', ignore)
  try {
    for await (const chunk of chunks) {
      await write(out, chunk.bytes)
      written.rows += chunk.rows
    }
  } finally {
    out.off('error', ignore)
  }
}

/**
 * The export into `path`, through `path.partial` renamed once every row is written. Resolves with
 * the rows written; on a failure (a damaged page, a full disk) rejects with how many rows the
 * `.partial` file holds, and `path` itself is left as it was.
 */
export async function exportIntoFile(chunks: AsyncIterable<ExportChunk>, path: string): Promise<number> {
  const partial = `${path}.partial`
  const out = createWriteStream(partial)
  const written = { rows: 0 }
  try {
    await writeChunks(chunks, out, written)
    await new Promise<void>((resolve, reject) => {
      out.once('error', reject)
      out.end(() => resolve())
    })
  } catch (error) {
    out.destroy()
    throw stoppedAfter(error, written.rows, { file: path })
  }
  renameSync(partial, path)
  return written.rows
}

/**
 * The export onto a stream left open (standard output). A reader that went away (EPIPE: `| head`)
 * is passed on as it is, for the caller to treat as the end it is; any other failure says how many
 * rows went out before it.
 */
export async function exportOnto(chunks: AsyncIterable<ExportChunk>, out: Writable, name: string): Promise<number> {
  const written = { rows: 0 }
  try {
    await writeChunks(chunks, out, written)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') throw error
    throw stoppedAfter(error, written.rows, { stream: name })
  }
  return written.rows
}
