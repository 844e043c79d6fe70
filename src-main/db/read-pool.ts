import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { Piscina } from 'piscina'
import type { JsonBytes, JsonShape } from './json-rows.mjs'
import { type StoreHealth, toStoreFault } from './store-faults'

/**
 * Reads off the main thread (issue 19): a pool of worker threads, each with its own read-only
 * connection to the same file. WAL lets them read beside the one writer (the main connection), and
 * each query reads the latest committed state when it starts. A query waits in the pool's queue
 * while every reader is busy; the main thread only posts it and takes the rows back.
 */
export interface ReadPool {
  /** Runs one SELECT on a free reader and resolves with its rows. */
  read<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>
  /** Runs one SELECT on a free reader and resolves with its rows as JSON bytes (json-rows.mjs), moved, not copied. */
  readJson(sql: string, parameters: readonly unknown[], shape: JsonShape): Promise<JsonBytes>
  readonly threads: number
  close(): Promise<void>
}

export interface ReadPoolOptions {
  path: string
  /** Reader threads; the machine's cores by default. */
  readers?: number
  /** The better-sqlite3 binding the main connection uses (the desktop app's Electron build). */
  nativeBinding?: string
  /** The worker's script, when not the default one (tests run the bundled one). */
  entry?: string
  /** Where damage a read meets is noted; reads name it either way (toStoreFault). */
  health?: StoreHealth
}

/** Readers a service gets when it does not say: one per core, since each query holds its thread. */
export const defaultReaders = (): number => availableParallelism()

/**
 * The worker's script: next to this module when running from the sources (plain JavaScript, no
 * loader needed), out/main/read-worker.js in the electron-vite bundle (a build input of its own).
 */
function workerEntry(): string {
  const fromSource = import.meta.url.endsWith('.ts')
  const path = fileURLToPath(new URL(fromSource ? './read-worker.mjs' : './read-worker.js', import.meta.url))
  if (!existsSync(path)) throw new Error(`The read worker is missing: ${path}`)
  return path
}

export function createReadPool({ path, readers = defaultReaders(), nativeBinding, entry = workerEntry(), health }: ReadPoolOptions): ReadPool {
  const pool = new Piscina({
    filename: entry,
    minThreads: readers,
    maxThreads: readers,
    // Readers keep their connection and statement cache for the life of the service.
    idleTimeout: Number.POSITIVE_INFINITY,
    workerData: { path, nativeBinding },
    recordTiming: false,
  })
  let closed: Promise<void> | null = null
  const run = <T>(task: object, name?: string): Promise<T> =>
    closed
      ? Promise.reject(new Error('The store is closed'))
      : (pool.run(task, name ? { name } : undefined) as Promise<T>).catch((error: unknown) => {
          const fault = toStoreFault(error, path, 'Reading the store')
          throw health ? health.note(fault) : fault
        })
  return {
    threads: readers,
    read: <R>(sql: string, parameters: readonly unknown[]) => run<R[]>({ sql, parameters }),
    readJson: (sql, parameters, shape) => run<JsonBytes>({ sql, parameters, shape }, 'json'),
    close: () => (closed ??= pool.destroy()),
  }
}
