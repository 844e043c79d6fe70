import type { Service } from '../service'
import { defaultDbPath, keyFileFor, poolSizeFrom } from './paths'

/** Says on stderr that the store is being updated, so a long first start after an upgrade is not a hang. */
export const reportMigrating = (pending: string[]) =>
  process.stderr.write(`Updating the store's schema (${pending.join(', ')}); once, and a store of millions of call logs takes a minute or less…\n`)

/** Says on stderr why opening takes a while after a pull was killed in the middle of a bulk load. */
export const reportRestoring = () =>
  process.stderr.write('Rebuilding the call log indexes a pull killed while loading in bulk left out (its rows are kept; the next pull resumes)…\n')

/**
 * Opens the store for a one-shot command (migrated, never auto-seeded) and closes it afterwards.
 * No reader threads: nothing else waits on this process, and starting them would only cost time.
 */
export async function withService<T>(dbOption: string | undefined, run: (service: Service) => Promise<T>): Promise<T> {
  const { createService } = await import('../service')
  const dbPath = dbOption ?? defaultDbPath()
  // One-shot on PostgreSQL: a connection or two is all a command uses.
  const service = await createService({ dbPath, seedNewDatabase: false, readers: 0, poolSize: poolSizeFrom() ?? 2, keyFile: keyFileFor(dbPath), onMigrating: reportMigrating, onRestoringIndexes: reportRestoring })
  try {
    return await run(service)
  } finally {
    await service.close()
  }
}
