import { statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  damagedMessage,
  diskFullMessage,
  StoreDamagedError,
  type StoreFaultDetails,
  StoreFaultError,
  storeFaultKind,
  StoreFullError,
} from '../../src-shared/store-faults'
import { isPostgresUrl } from './store-kind'
import type { StoreBackend } from './store-writer'

/**
 * Free bytes on the disk holding `path` (what a user, not root, may still write), or null when it
 * cannot be read: a PostgreSQL URL, `:memory:`, a folder that is gone.
 */
export function freeBytesBeside(path: string): number | null {
  if (path === ':memory:' || isPostgresUrl(path)) return null
  try {
    const stats = statfsSync(dirname(path))
    return Number(stats.bavail) * Number(stats.bsize)
  } catch {
    return null
  }
}

/**
 * `error` as the store fault it is (StoreFullError, StoreDamagedError) with what failed, where the
 * store lives and the room left, or `error` itself when it is no store fault (or already one).
 */
export function toStoreFault(error: unknown, storePath: string, what = 'Writing to the store', options: { neededBytes?: number | null; outcome?: string } = {}): unknown {
  if (error instanceof StoreFaultError) return error
  const kind = storeFaultKind(error)
  if (kind === null) return error
  const reason = (error as Error).message?.replace(/^SQLITE_[A-Z_]+: /, '') ?? String(error)
  const details: StoreFaultDetails = { storePath, reason, freeBytes: freeBytesBeside(storePath), neededBytes: options.neededBytes ?? null }
  const fault =
    kind === 'full' ? new StoreFullError(diskFullMessage(what, details, options.outcome), details) : new StoreDamagedError(damagedMessage(what, details, reason, options.outcome), details)
  return Object.assign(fault, { cause: error })
}

/** The last fault the store met, for the console's banner and `serve`'s output. */
export interface StoreFaultNote {
  kind: 'full' | 'damaged'
  message: string
  /** When it was met (ISO 8601). */
  at: string
}

/**
 * What the service knows of its store's health: the last write the disk refused (until a write
 * gets through again) and damage met by a read, a write or the check on open.
 */
export interface StoreHealth {
  readonly writeFault: StoreFaultNote | null
  readonly damage: StoreFaultNote | null
  /** Records `error` if it is a store fault; returns it unchanged either way. */
  note(error: unknown): unknown
  /** A write got through: the fault is over once the disk has room again (ROOM_MADE_BYTES more than at the fault). */
  writeSucceeded(): void
  /** Damage found other than by an error (the check on open). */
  noteDamage(message: string): void
  /** Calls `listener` once, when damage is first recorded (serve says it on stderr); returns what unsubscribes. */
  onDamage(listener: (damage: StoreFaultNote) => void): () => void
}

/** Free room gained since a write the disk refused that counts as room made (not a few pages some delete freed). */
const ROOM_MADE_BYTES = 1 << 20

export function createStoreHealth(storePath?: string): StoreHealth {
  let writeFault: StoreFaultNote | null = null
  /** Free bytes on the store's disk when the write was refused, when they could be read. */
  let freeAtFault: number | null = null
  let damage: StoreFaultNote | null = null
  const noteOf = (error: StoreFaultError): StoreFaultNote => ({ kind: error.kind, message: error.message, at: new Date().toISOString() })
  /** Whether the disk has room again since the refused write; null when its free room cannot be read. */
  const roomMade = (): boolean | null => {
    const free = storePath === undefined ? null : freeBytesBeside(storePath)
    return free === null || freeAtFault === null ? null : free >= freeAtFault + ROOM_MADE_BYTES
  }
  const listeners = new Set<(damage: StoreFaultNote) => void>()
  const recordDamage = (note: StoreFaultNote) => {
    if (damage) return
    damage = note
    for (const listener of listeners) listener(note)
  }
  return {
    get writeFault() {
      // Room made since (a file deleted) ends the fault without waiting for a write.
      if (writeFault && roomMade() === true) writeFault = null
      return writeFault
    },
    get damage() {
      return damage
    },
    note(error) {
      if (error instanceof StoreFullError) {
        writeFault = noteOf(error)
        freeAtFault = error.details.freeBytes ?? null
      } else if (error instanceof StoreDamagedError) recordDamage(noteOf(error))
      return error
    },
    writeSucceeded() {
      // A small write can get through a disk that is still full (into the WAL's free frames, or
      // pages a delete freed); the fault stands until room was made, so the console keeps saying
      // why the next large write will fail. Without a reading of the disk, a write that got through
      // is all there is to go by.
      if (writeFault && roomMade() !== false) writeFault = null
    },
    noteDamage(message) {
      recordDamage({ kind: 'damaged', message, at: new Date().toISOString() })
    },
    onDamage(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/**
 * The writing connection with its faults named (toStoreFault) and noted in `health`: every write
 * of every module goes through here, so a full disk or a damaged page reaches each transport as
 * a 507 or 503 with what to do, never as SQLite's bare code or a 500.
 */
export function faultAwareBackend(backend: StoreBackend, storePath: string, health: StoreHealth): StoreBackend {
  const named = <R>(work: () => Promise<R>, wrote: (result: R) => boolean, what?: string): Promise<R> =>
    work().then(
      (result) => {
        if (wrote(result)) health.writeSucceeded()
        return result
      },
      (error: unknown) => {
        throw health.note(toStoreFault(error, storePath, what))
      },
    )
  // Without reader threads (one-shot CLI commands) the reads come through here too: name them as reads.
  const whatOf = (sql: string) => (/^\s*(select|with)\b/i.test(sql) ? 'Reading the store' : undefined)
  return {
    get threaded() {
      return backend.threaded
    },
    execute: (statement) =>
      named(() => backend.execute(statement), (result) => result.numAffectedRows !== undefined && result.numAffectedRows > 0n, whatOf(statement.sql)),
    job: (job, args, onProgress) => named(() => backend.job(job, args, onProgress), () => true),
    close: () => backend.close(),
  }
}
