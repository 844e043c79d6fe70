/*
 * Faults of the store itself, as opposed to a request's: the disk holding it is full, or its file
 * is damaged (issue 36). Read the same way whichever store raised them, and carried to every
 * transport: REST answers 507 or 503 with `{"detail": message}`, tRPC SERVICE_UNAVAILABLE with the
 * same message, the CLI prints it and exits 1. Pure: the console reads the kinds too.
 */

export type StoreFaultKind = 'full' | 'damaged'

/**
 * SQLite's, Node's and PostgreSQL's (SQLSTATE 53100 disk_full) codes for a disk with no room left.
 * SQLITE_IOERR_SHMSIZE is SQLite failing to size the WAL's shared-memory file: what opening a
 * store on a disk with under 32 KiB free answers, where a write would answer SQLITE_FULL.
 */
const FULL_CODES = new Set(['SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'ENOSPC', 'EDQUOT', '53100'])
/** SQLSTATE data_corrupted and index_corrupted. */
const DAMAGED_PG_CODES = new Set(['XX001', 'XX002'])

/** An error's code; a reader thread's error carries SQLite's code only as its message's prefix ("SQLITE_CORRUPT: …"). */
export function errorCode(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return code
  const message = (error as { message?: unknown }).message
  return typeof message === 'string' ? /^(SQLITE_[A-Z_]+):/.exec(message)?.[1] : undefined
}

/** Which store fault an error is, or null when it is something else. */
export function storeFaultKind(error: unknown): StoreFaultKind | null {
  if (error instanceof StoreFaultError) return error.kind
  const code = errorCode(error)
  if (code === undefined) return null
  if (FULL_CODES.has(code)) return 'full'
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || DAMAGED_PG_CODES.has(code)) return 'damaged'
  return null
}

/** What is known of a fault beside its cause. */
export interface StoreFaultDetails {
  /** The database file (or the PostgreSQL URL without its password). */
  storePath: string
  /** What the store said (damage: SQLite's or PostgreSQL's message). */
  reason?: string
  /** Free bytes on the disk holding the store, when it could be read. */
  freeBytes?: number | null
  /** Bytes the operation needed, when it estimated them (a bulk import). */
  neededBytes?: number | null
}

export abstract class StoreFaultError extends Error {
  abstract readonly kind: StoreFaultKind
  constructor(
    message: string,
    readonly details: StoreFaultDetails,
  ) {
    super(message)
  }
}

/** The disk holding the store has no room: nothing of the failed write was kept. REST 507. */
export class StoreFullError extends StoreFaultError {
  readonly kind = 'full'
  override readonly name = 'StoreFullError'
}

/** The store's file is damaged: a read or write met a page SQLite cannot read. REST 503. */
export class StoreDamagedError extends StoreFaultError {
  readonly kind = 'damaged'
  override readonly name = 'StoreDamagedError'
}

/** Bytes for a person: 1.4 GiB, 312 MiB, 20 KiB. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${value >= 10 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`
}

/** What a failed write kept, said after the fault: by default, nothing. */
export const NOTHING_STORED = 'Nothing of it was stored.'

/**
 * "<what> failed: the disk holding the store is full (…)": what failed, where the store lives, the
 * room it had and wanted, what of it was kept (`outcome`), and what to do. `what` names the
 * operation ("The import", "Saving the view").
 */
export function diskFullMessage(what: string, details: StoreFaultDetails, outcome = NOTHING_STORED): string {
  const room = [
    details.freeBytes != null ? `${formatBytes(details.freeBytes)} free` : null,
    details.neededBytes != null ? `about ${formatBytes(details.neededBytes)} needed` : null,
  ].filter(Boolean)
  return (
    `${what} failed: the disk holding the store is full (${details.storePath}${room.length ? `; ${room.join(', ')}` : ''}). ${outcome} ` +
    'Make room on that disk, then run it again: what is already stored is kept and not doubled.'
  )
}

/**
 * "<what> failed: the store is damaged (…)", what of it was kept when the caller knows (`outcome`:
 * a batched import's committed batches, say), and the commands that check and salvage the store.
 */
export function damagedMessage(what: string, details: StoreFaultDetails, cause: string, outcome?: string): string {
  const db = details.storePath.includes(' ') ? `"${details.storePath}"` : details.storePath
  const said = `${what} failed: the store is damaged (${details.storePath}: ${cause}). ${outcome ? `${outcome} ` : ''}`
  // db recover refuses a PostgreSQL store (it salvages SQLite files): advising it there sent the
  // user to a command that only says to restore a pg_dump.
  if (/^postgres(ql)?:/.test(details.storePath)) {
    return `${said}Run \`callscope db check --db ${db}\` to see which tables are hit, then restore the database from a pg_dump backup (README, "Check, recover and back up a store").`
  }
  return (
    said +
    `Run \`callscope db check --db ${db}\` to see how far, then \`callscope db recover --db ${db} --out NEW.db\` ` +
    'to copy every readable row into a new store, or restore a backup (README, "Check, recover and back up a store").'
  )
}

/**
 * The same fault told as the failure of `what` (an operation a service knows by name, where the
 * writer only knew "Writing to the store"), with what of it was kept; any other error unchanged.
 */
export function restated(error: unknown, what: string, outcome = NOTHING_STORED): unknown {
  if (!(error instanceof StoreFaultError)) return error
  const { details } = error
  const fault =
    error.kind === 'full'
      ? new StoreFullError(diskFullMessage(what, details, outcome), details)
      : new StoreDamagedError(damagedMessage(what, details, details.reason ?? 'database disk image is malformed', outcome), details)
  return Object.assign(fault, { cause: error.cause ?? error })
}
