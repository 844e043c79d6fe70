import { resolve } from 'node:path'
import type { Command } from 'commander'
import { formatBytes } from '../../../src-shared/store-faults'
import type { BackupProgress } from '../../db/backup'
import { pgDumpAdvice } from '../../db/pg-dump-advice'
import { isPostgresUrl } from '../../db/store-kind'
import { assertStoreExists } from '../open-service'
import { defaultDbPath } from '../paths'

interface BackupFlags {
  db?: string
  force?: boolean
  withKey?: boolean
}

/** Stores smaller than this copy in a moment; larger ones say how far they are. */
const PROGRESS_FROM_BYTES = 64 * 1024 * 1024

/** One line per tenth on stderr, so a log or a pipe gets a few lines rather than a redrawn bar. */
function progressLines(write: (line: string) => void): (progress: BackupProgress) => void {
  let shown = -1
  return ({ copiedBytes, totalBytes }) => {
    if (totalBytes < PROGRESS_FROM_BYTES) return
    const tenth = Math.floor((copiedBytes / totalBytes) * 10)
    if (tenth <= shown) return
    shown = tenth
    write(`Backing up: ${formatBytes(copiedBytes)} of ${formatBytes(totalBytes)} (${tenth * 10}%)`)
  }
}

/**
 * `callscope backup FILE`: a consistent copy of the SQLite store while serve or the app runs on it
 * (db/backup.ts). It opens no service: the copy is of the store as it is, not migrated, so a backup
 * taken before an upgrade stays the old schema. The copy runs on this process's own thread, which
 * nothing else waits on.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('write a consistent copy of the store to FILE while serve or the app runs on it (SQLite; a PostgreSQL store: use pg_dump)')
    .argument('<file>', 'the backup file to write')
    .option('--db <file|url>', 'store to back up (default: $CALLSCOPE_DB or the per-user data folder)')
    .option('--force', 'replace FILE if it exists (once the new backup is complete)')
    .option('--with-key', 'also copy the store\'s sealing key (<store>.key) to FILE.key, needed to read sealed provider keys and webhook secrets')
    .action(async (file: string, opts: BackupFlags) => {
      const dbPath = opts.db ?? defaultDbPath()
      if (isPostgresUrl(dbPath)) throw new Error(pgDumpAdvice(dbPath, file))
      assertStoreExists(dbPath)
      const target = resolve(file)
      // Loaded on use, so --help and the other commands do not load SQLite's binding.
      const { backupSqliteStore, copyKeyFile } = await import('../../db/backup')
      const err = (line: string) => process.stderr.write(`${line}\n`)
      const result = await backupSqliteStore(dbPath, target, { force: opts.force, onProgress: progressLines(err) })
      const out = (line: string) => process.stdout.write(`${line}\n`)
      out(`Backup of ${dbPath} written to ${result.file} (${formatBytes(result.sizeBytes)}, checked, in ${(result.ms / 1000).toFixed(1)} s)`)
      if (opts.withKey) {
        out(copyKeyFile(dbPath, target, opts.force) ? `Sealing key copied to ${target}.key (keep it as private as the store's own)` : 'The store has no sealing key yet (nothing sealed in it): no key to copy')
      } else {
        out(`Not in the backup: the sealing key ${dbPath}.key. Keep a copy of it with the backup, or its sealed provider keys and webhook secrets cannot be read (--with-key copies it to ${target}.key)`)
      }
      out(`Restore: stop serve and the app, then run \`callscope serve --db ${target}\`, or copy it over ${dbPath} and delete ${dbPath}-wal and ${dbPath}-shm`)
    })
}
