import { statSync } from 'node:fs'
import { parseBackupPeriod, type BackupSchedule, type BackupStatus } from '../../src-shared/schemas/backup-schedule'
import type { BackupResult } from '../db/backup'
import { type BackupSchedule as RunningSchedule, defaultBackupDir, listBackups, startBackupSchedule } from '../db/backup-schedule'

/**
 * Settings → Backups in the desktop app: the schedule of db/backup-schedule.ts (the one `serve
 * --backup-every` runs) kept on the open store, started again when the settings change or another
 * store is opened. Plain Node, so it is tested without Electron; the entry (src-main/index.ts)
 * passes the store and where the settings are saved.
 */
export interface BackupControlOptions {
  initial: BackupSchedule
  save(schedule: BackupSchedule): void
  /** The open store's file, and its backup (DatabaseService.backup); null when it has none to back up (PostgreSQL). */
  store(): { path: string; backup(file: string): Promise<BackupResult> } | null
  /** Where failures are said besides the status (the main process's stderr). */
  warn(line: string): void
}

export interface BackupControl {
  status(): BackupStatus
  configure(schedule: BackupSchedule): BackupStatus
  /** Restarts the schedule on the store now open (after File → Open). */
  restart(): void
  stop(): void
}

export function createBackupControl(options: BackupControlOptions): BackupControl {
  let schedule = options.initial
  let running: RunningSchedule | null = null
  let error: string | null = null

  const start = () => {
    running?.stop()
    running = null
    error = null
    const store = options.store()
    const everyMs = schedule.every === null ? null : parseBackupPeriod(schedule.every)
    if (!store || everyMs === null) return
    running = startBackupSchedule({
      storePath: store.path,
      everyMs,
      keep: schedule.keep,
      dir: schedule.dir,
      backup: store.backup,
      log: () => (error = null),
      warn: (line) => {
        error = line
        options.warn(line)
      },
    })
  }

  const status = (): BackupStatus => {
    const store = options.store()
    const dir = schedule.dir ?? (store ? defaultBackupDir(store.path) : '')
    const newest = store ? listBackups(dir, store.path).at(-1) : undefined
    return { schedule, dir, last: newest ? { file: newest.file, at: newest.at.toISOString(), sizeBytes: sizeOf(newest.file) } : null, error }
  }

  start()
  return {
    status,
    configure(next) {
      schedule = next
      options.save(next)
      start()
      return status()
    },
    restart: start,
    stop() {
      running?.stop()
      running = null
    },
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
