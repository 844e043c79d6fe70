import { mkdirSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, extname, join } from 'node:path'
import { formatBytes } from '../../src-shared/store-faults'
import type { BackupResult } from './backup'

/**
 * Scheduled backups (`serve --backup-every 24h --backup-keep 7`, the app's settings): a backup of
 * the store every period into a folder, named by the UTC time it began, the oldest beyond `keep`
 * deleted once a new one is complete. Plain Node: the backup itself is given (the database
 * service's, which runs on a thread of its own), so serve, the app and the tests share this.
 */
export interface BackupScheduleOptions {
  /** The SQLite store: names the backups and, by default, where their folder is. */
  storePath: string
  everyMs: number
  keep: number
  /** Where the backups go; default: `backups` beside the store. */
  dir?: string | null
  backup(file: string): Promise<BackupResult>
  /** A backup done, and what was deleted to keep `keep`. */
  log(line: string): void
  /** A backup that failed: said, and the schedule goes on. */
  warn(line: string): void
  now?: () => Date
}

export interface BackupSchedule {
  dir: string
  /** The backup under way, if any, settled (it never rejects: failures are warned). */
  running(): Promise<void>
  stop(): void
}

/** setTimeout's longest wait (about 24.8 days); a longer period waits in several. */
const MAX_TIMER_MS = 2 ** 31 - 1

export const defaultBackupDir = (storePath: string) => join(dirname(storePath), 'backups')

/** `20261128T023700Z`: UTC, sorts as time does, and has no character a file system refuses. */
function stampOf(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '')
}

function nameParts(storePath: string): { stem: string; ext: string } {
  const ext = extname(storePath) || '.sqlite'
  return { stem: basename(storePath, extname(storePath)), ext }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** The backup of `storePath` begun at `date`: `<store name>-20261128T023700Z.sqlite`. */
export function backupFileName(storePath: string, date: Date): string {
  const { stem, ext } = nameParts(storePath)
  return `${stem}-${stampOf(date)}${ext}`
}

/** The scheduled backups of `storePath` in `dir`, oldest first, with when each began. */
export function listBackups(dir: string, storePath: string): Array<{ file: string; at: Date }> {
  const { stem, ext } = nameParts(storePath)
  const pattern = new RegExp(`^${escapeRegex(stem)}-(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z${escapeRegex(ext)}$`)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  return names
    .map((name) => ({ name, match: pattern.exec(name) }))
    .filter((entry): entry is { name: string; match: RegExpExecArray } => entry.match !== null)
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map(({ name, match }) => ({ file: join(dir, name), at: new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z`) }))
}

/** Deletes the oldest backups beyond the newest `keep` (and a key copied beside one); returns their files. */
export function pruneBackups(dir: string, storePath: string, keep: number): string[] {
  const backups = listBackups(dir, storePath)
  const old = backups.slice(0, Math.max(0, backups.length - keep)).map((b) => b.file)
  for (const file of old) {
    rmSync(file, { force: true })
    rmSync(`${file}.key`, { force: true })
  }
  return old
}

/**
 * Starts the schedule. The first backup is due one period after the newest already in the folder
 * (at once when there is none, or it is older than that): restarting serve every day does not put
 * a daily backup off forever. One backup at a time; the next is timed from the end of the last.
 */
export function startBackupSchedule(options: BackupScheduleOptions): BackupSchedule {
  const dir = options.dir ?? defaultBackupDir(options.storePath)
  const now = options.now ?? (() => new Date())
  let timer: NodeJS.Timeout | null = null
  let stopped = false
  let current: Promise<void> = Promise.resolve()

  const runOnce = async () => {
    const began = now()
    const file = join(dir, backupFileName(options.storePath, began))
    try {
      mkdirSync(dir, { recursive: true })
      const result = await options.backup(file)
      // Only now: a failed backup never costs one that was already there.
      const removed = pruneBackups(dir, options.storePath, options.keep)
      const pruned = removed.length ? `; removed ${removed.map((f) => basename(f)).join(', ')} (keeping ${options.keep})` : ''
      options.log(`Backup written to ${result.file} (${formatBytes(result.sizeBytes)}, ${(result.ms / 1000).toFixed(1)} s)${pruned}`)
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).replace(/\.$/, '')
      options.warn(`Scheduled backup to ${file} failed: ${reason}. Serving goes on; the next try is in ${describe(options.everyMs)}.`)
    }
  }

  const waitFor = (ms: number) => {
    if (stopped) return
    const step = Math.min(ms, MAX_TIMER_MS)
    timer = setTimeout(() => {
      if (ms > step) return waitFor(ms - step)
      current = runOnce().then(() => waitFor(options.everyMs))
    }, step)
    // The schedule alone does not keep a process alive: serve's listener and the app's window do.
    timer.unref()
  }

  const newest = listBackups(dir, options.storePath).at(-1)
  const sinceNewest = newest ? now().getTime() - newest.at.getTime() : Infinity
  waitFor(Math.max(0, options.everyMs - sinceNewest))

  return {
    dir,
    running: () => current,
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
    },
  }
}

/** "every 24h, keeping 7", for serve's banner. */
export const describeSchedule = ({ everyMs, keep }: { everyMs: number; keep: number }) => `every ${describe(everyMs)}, keeping ${keep}`

function describe(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`
  }
  return `${Math.round(ms / 1000)}s`
}
