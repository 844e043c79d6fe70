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
