import { Worker } from 'node:worker_threads'
import type { QueryResult } from 'kysely'
import type { Statement, StoreBackend } from './store-writer'
import type { WriteJob } from './write-job'
import { type FromWriter, fromWire, type ToWriter, type WriterData } from './writer-protocol'

/** A message before it is numbered. */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never

interface Pending {
  resolve(value: unknown): void
  reject(error: Error): void
  onProgress?: (value: unknown) => void
}

/**
 * The writing connection on a thread of its own (issue 19): the worker at `entry` opens the store,
 * runs the statements and write jobs posted to it, and answers each. The calling thread only posts
 * and takes the answers back, so an import, a seed or a snapshot never holds it up.
 */
export async function startWriterThread(entry: URL, data: WriterData): Promise<StoreBackend> {
  const worker = new Worker(entry, { workerData: data })
  const pending = new Map<number, Pending>()
  let nextId = 1
  let failure: Error | null = null

  const failAll = (error: Error) => {
    failure ??= error
    for (const p of pending.values()) p.reject(failure)
    pending.clear()
  }
  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromWriter) => {
      if (message.type === 'ready') return resolve()
      if (message.type === 'failed') return reject(fromWire(message.error))
      const waiting = pending.get(message.id)
      if (!waiting) return
      if (message.type === 'progress') return waiting.onProgress?.(message.value)
      pending.delete(message.id)
      if (message.type === 'result') waiting.resolve(message.value)
      else waiting.reject(fromWire(message.error))
    })
    worker.on('error', (error) => {
      reject(error)
      failAll(error)
    })
    worker.on('exit', (code) => {
      const error = new Error(`The store's writer thread stopped (exit code ${code})`)
      reject(error)
      failAll(error)
    })
  })
  try {
    await ready
  } catch (error) {
    await worker.terminate()
    throw error
  }

  const ask = <R>(message: WithoutId<ToWriter>, onProgress?: (value: unknown) => void, transfer: ArrayBuffer[] = []): Promise<R> => {
    if (failure) return Promise.reject(failure)
    const id = nextId++
    return new Promise<R>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject, onProgress })
      worker.postMessage({ ...message, id } as ToWriter, transfer)
    })
  }
  let closed: Promise<void> | null = null

  return {
    threaded: true,
    execute: <R>(statement: Statement) => ask<QueryResult<R>>({ type: 'execute', statement }),
    job: <A, R>(job: WriteJob<A, R>, args: A, onProgress?: (value: unknown) => void) => ask<R>({ type: 'job', name: job.name, args }, onProgress, job.transfer?.(args)),
    close: () =>
      (closed ??= (async () => {
        failure ??= new Error('The store is closed')
        // The thread closes its connection (checkpointing the WAL) before it ends.
        const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
        worker.postMessage({ id: 0, type: 'close' })
        await exited
      })()),
  }
}
