import { type BackupOptions, type BackupResult, backupSqliteStore } from '../../db/backup'
import { defineWriteJob } from '../../db/write-job'
import { type SeedOptions, type SeedResult, seedDatabase } from '../../seed'
import { type SnapshotOptions, type SnapshotResult, writeSnapshot } from './snapshot-pack'

/** Demo data (seed/), written on the store's writing connection; its progress goes back as reports. */
export const seedJob = defineWriteJob('database.seed', (ctx, options: Omit<SeedOptions, 'onProgress'>): SeedResult =>
  seedDatabase(ctx, { ...options, onProgress: (progress) => ctx.progress(progress) }),
)

/** A demo pack of the store (snapshot-pack.ts), copied and cleaned beside the writing connection. */
export const snapshotJob = defineWriteJob('database.snapshot', (ctx, { file, options }: { file: string; options: SnapshotOptions }): Promise<SnapshotResult> =>
  writeSnapshot(ctx, file, options),
)

/**
 * Rows of one table written into a SQLite store in one transaction, as given (a PostgreSQL store's
 * snapshot fills its SQLite copy with them, pg-snapshot.ts). The store's triggers keep its word
 * indexes as for any insert.
 */
export const insertRowsJob = defineWriteJob('database.insert-rows', (ctx, { table, columns, rows }: { table: string; columns: string[]; rows: unknown[][] }): number => {
  const list = columns.map((c) => `"${c}"`).join(', ')
  const insert = ctx.sqlite.prepare(`insert into "${table}" (${list}) values (${columns.map(() => '?').join(', ')})`)
  ctx.sqlite.transaction(() => {
    for (const row of rows) insert.run(row)
  })()
  return rows.length
})

/**
 * A backup of the store (db/backup.ts) on a thread started for it (database.service.ts): a
 * read-only connection of its own, so the writer and the readers go on while it copies.
 */
export const backupJob = defineWriteJob('database.backup', (ctx, { file, force }: { file: string; force?: boolean }): Promise<BackupResult> =>
  backupSqliteStore(ctx.path, file, { force, nativeBinding: ctx.nativeBinding, onProgress: (progress) => ctx.progress(progress) } satisfies BackupOptions),
)
