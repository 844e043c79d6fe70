import type { QueryResult } from 'kysely'
import type { WriteJob } from './write-job'

/** One statement as kysely compiled it. */
export interface Statement {
  sql: string
  parameters: readonly unknown[]
}

/**
 * Where the writing connection lives: on this thread (inline-store.ts: in-memory stores, one-shot
 * CLI commands) or on the writer thread (writer-thread.ts: the desktop app and `serve`). Both run
 * one thing at a time, in the order asked; StoreWriter makes sure only one caller asks at a time.
 */
export interface StoreBackend {
  /** Runs one statement on the writing connection. */
  execute<R>(statement: Statement): Promise<QueryResult<R>>
  /** Runs a write job on the writing connection, passing its progress reports to `onProgress`. */
  job<A, R>(job: WriteJob<A, R>, args: A, onProgress?: (value: unknown) => void): Promise<R>
  /** True when the connection is on another thread. */
  readonly threaded: boolean
  close(): Promise<void>
}

/** Where faults are noted: the store's health (store-faults.ts StoreHealth), named here by what the writer needs of it. */
export interface FaultNotes {
  note(error: unknown): unknown
}

/** Runs write jobs on the connection a caller holds (StoreWriter.exclusive). */
export type RunJob = <A, R>(job: WriteJob<A, R>, args: A, onProgress?: (value: unknown) => void) => Promise<R>

/** Releases what `Mutex.acquire` took. */
export type Release = () => void

/** First come, first served: who holds the writing connection (a transaction, a job). */
export class Mutex {
  private tail: Promise<void> = Promise.resolve()

  acquire(): Promise<Release> {
    let release!: Release
    const held = new Promise<void>((resolve) => (release = resolve))
    const turn = this.tail.then(() => release)
    this.tail = this.tail.then(() => held)
    return turn
  }
}

/**
 * The store's one writing connection as the services use it: kysely's statements (store-dialect.ts)
 * and write jobs take turns on it, so a job never runs inside someone else's transaction.
 */
export class StoreWriter {
  readonly mutex = new Mutex()

  /**
   * `health`: where the store's faults are noted. The backend notes those its statements and jobs
   * throw; a job that reports a fault instead of throwing (an import's sink, which keeps the
   * batches before it) has its service note it here.
   */
  constructor(
    readonly backend: StoreBackend,
    readonly health?: FaultNotes,
  ) {}

  /** Whether the connection is on the writer thread (the thread calling this runs no SQL). */
  get threaded(): boolean {
    return this.backend.threaded
  }

  /** Runs one write job once the connection is free. */
  async run<A, R>(job: WriteJob<A, R>, args: A, onProgress?: (value: unknown) => void): Promise<R> {
    const release = await this.mutex.acquire()
    try {
      return await this.backend.job(job, args, onProgress)
    } finally {
      release()
    }
  }

  /**
   * Holds the connection for several jobs in a row (a bulk load's one transaction, begun by one
   * job and committed by another). `work` must not use kysely on the store meanwhile: its writes
   * wait for this hold to end.
   */
  async exclusive<T>(work: (run: RunJob) => Promise<T>): Promise<T> {
    const release = await this.mutex.acquire()
    try {
      return await work((job, args, onProgress) => this.backend.job(job, args, onProgress))
    } finally {
      release()
    }
  }
}
