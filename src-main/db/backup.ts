import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { formatBytes, StoreDamagedError, StoreFullError, storeFaultKind } from '../../src-shared/store-faults'
import { fsyncPath, partialPathFor, removeDatabaseFiles, removeDeadPartials, renameWhole } from './partial-files'
import { freeBytesBeside, toStoreFault } from './store-faults'

/** How far a backup is: bytes of the store's pages copied so far, of all of them. */
export interface BackupProgress {
  copiedBytes: number
  totalBytes: number
}

export interface BackupOptions {
  /** Replace FILE if it exists (it is replaced only once the new copy is complete). */
  force?: boolean
  /** The better-sqlite3 binding to open the store with (the desktop's Electron build). */
  nativeBinding?: string
  onProgress?: (progress: BackupProgress) => void
}

export interface BackupResult {
  file: string
  sizeBytes: number
  /** Pages copied: the store as it was when the backup began. */
  pages: number
  ms: number
}

/** Pages per step: 8 MiB of 4 KiB pages, a few milliseconds of copying between progress reports. */
const PAGES_PER_STEP = 2048
/** Room kept free beyond the copy's size: its rollback journal and the check's reads need a little. */
const MARGIN_BYTES = 1 << 20

/**
 * The sealing key of the store's provider keys and webhook secrets (`<store>.key`) copied beside
 * the backup as `<file>.key`, where `serve --db FILE` looks for it (`backup --with-key`). Written
 * under a temporary name and renamed, owner-only, as the key itself is. False when the store has
 * no key yet (nothing was ever sealed).
 */
export function copyKeyFile(storePath: string, file: string, force = false): boolean {
  const key = `${storePath}.key`
  if (!existsSync(key)) return false
  const target = `${file}.key`
  if (existsSync(target) && !force) throw new Error(`${target} already exists (use --force to replace it)`)
  const partial = `${target}.${process.pid}.partial`
  try {
    copyFileSync(key, partial)
    chmodSync(partial, 0o600)
    fsyncPath(partial)
    renameSync(partial, target)
  } catch (error) {
    rmSync(partial, { force: true })
    throw error
  }
  return true
}

/** "The backup failed: the disk holding <folder> is full (…)": the backup's folder, not the store's. */
export function backupDiskFullMessage(folder: string, freeBytes: number | null, neededBytes: number | null, before = false): string {
  const room = [freeBytes != null ? `${formatBytes(freeBytes)} free` : null, neededBytes != null ? `about ${formatBytes(neededBytes)} needed` : null].filter(Boolean)
  return (
    `The backup ${before ? 'was not started' : 'failed'}: the disk holding ${folder} ${before ? 'has too little room for it' : 'is full'}${room.length ? ` (${room.join(', ')})` : ''}. ` +
    'No backup file was left there. Make room on that disk or choose a folder on another one, then run it again.'
  )
}

/**
 * A consistent copy of the SQLite store at `storePath` in `file`, through SQLite's online backup,
 * while other connections (serve, the app) go on reading and writing it.
 *
 * It opens a read-only connection of its own and holds one read transaction for the whole copy:
 * in WAL mode writers go on beside it, and the copy is the store as it was when the backup began
 * (a commit by another connection would otherwise restart SQLite's backup at its next step, and a
 * store under steady writes would never finish). Every transaction is in the copy whole or not at
 * all. The pages go to a hidden `.partial` name beside FILE, are checked (`quick_check`), synced,
 * and only then renamed to FILE: a backup that fails or is killed never leaves a file that looks
 * complete. The sealing key beside the store (`<store>.key`) is not copied (see `copyKeyFile`).
 *
 * It runs synchronously between event-loop turns on the calling thread: the CLI's own, or a thread
 * of its own in `serve` and the app (database.service.ts), never the thread answering requests.
 */
// SQLite-only: better-sqlite3's backup (sqlite3_backup_step) and a read transaction on a second connection.
export async function backupSqliteStore(storePath: string, file: string, options: BackupOptions = {}): Promise<BackupResult> {
  const started = performance.now()
  if (!existsSync(storePath)) throw new Error(`no store at ${storePath}`)
  const folder = dirname(file)
  if (!existsSync(folder)) throw new Error(`the backup's folder ${folder} does not exist`)
  if (existsSync(file) && !options.force) throw new Error(`${file} already exists (use --force to replace it once the new backup is complete)`)
  removeDeadPartials(file)

  let source: BetterSqlite3.Database
  try {
    source = new BetterSqlite3(storePath, { readonly: true, fileMustExist: true, nativeBinding: options.nativeBinding })
  } catch (error) {
    throw toStoreFault(error, storePath, 'The backup')
  }
  const partial = partialPathFor(file)
  try {
    // The read transaction: this snapshot of the store is what the whole backup copies.
    source.exec('begin')
    let pageSize: number
    let pageCount: number
    try {
      pageSize = source.pragma('page_size', { simple: true }) as number
      pageCount = source.pragma('page_count', { simple: true }) as number
    } catch (error) {
      throw toStoreFault(error, storePath, 'The backup')
    }
    const totalBytes = pageSize * pageCount
    const free = freeBytesBeside(file)
    if (free !== null && free < totalBytes + MARGIN_BYTES) {
      throw new StoreFullError(backupDiskFullMessage(folder, free, totalBytes + MARGIN_BYTES, true), { storePath: folder, freeBytes: free, neededBytes: totalBytes + MARGIN_BYTES })
    }
    const report = options.onProgress
    report?.({ copiedBytes: 0, totalBytes })
    try {
      await source.backup(partial, {
        progress: ({ totalPages, remainingPages }) => {
          report?.({ copiedBytes: (totalPages - remainingPages) * pageSize, totalBytes: totalPages * pageSize })
          return PAGES_PER_STEP
        },
      })
      checkCopy(partial)
    } catch (error) {
      // Gone before the room is measured: the message says what the disk has without the cut copy.
      removeDatabaseFiles(partial)
      throw namedFault(error, { storePath, folder, file, neededBytes: totalBytes })
    }
    source.exec('commit')
    report?.({ copiedBytes: totalBytes, totalBytes })
    renameWhole(partial, file)
    return { file, sizeBytes: statSync(file).size, pages: pageCount, ms: Math.round(performance.now() - started) }
  } catch (error) {
    removeDatabaseFiles(partial)
    throw error
  } finally {
    source.close()
  }
}

/**
 * The copy read back before it gets its name: SQLite's backup copies pages as they are, so a
 * damaged store gives a damaged copy without a word; a copy that fails `quick_check` is no backup.
 */
function checkCopy(partial: string): void {
  const copy = new BetterSqlite3(partial, { fileMustExist: true })
  try {
    const rows = copy.pragma('quick_check(20)') as Array<{ quick_check: string }>
    const problems = rows.map((row) => row.quick_check).filter((line) => line !== 'ok')
    if (problems.length) throw Object.assign(new Error(`the copy fails SQLite's check: ${problems.slice(0, 3).join('; ')}`), { code: 'SQLITE_CORRUPT' })
  } finally {
    copy.close()
  }
}

/** A full disk named by the backup's folder (the store's own disk is not the one that filled); damage by the store. */
function namedFault(error: unknown, where: { storePath: string; folder: string; file: string; neededBytes: number }): unknown {
  const kind = storeFaultKind(error)
  if (kind === 'full') {
    const free = freeBytesBeside(where.file)
    return Object.assign(new StoreFullError(backupDiskFullMessage(where.folder, free, where.neededBytes), { storePath: where.folder, freeBytes: free, neededBytes: where.neededBytes }), { cause: error })
  }
  if (kind === 'damaged') return toStoreFault(error, where.storePath, 'The backup') as StoreDamagedError
  return error
}

