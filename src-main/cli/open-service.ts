import type { Service } from '../service'
import { existsSync } from 'node:fs'
import { isPostgresUrl } from '../db/store-kind'
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
export async function withService<T>(dbOption: string | undefined, run: (service: Service) => Promise<T>, options: { mustExist?: boolean } = {}): Promise<T> {
  const { createService } = await import('../service')
  const dbPath = dbOption ?? defaultDbPath()
  if (options.mustExist) assertStoreExists(dbPath)
  // One-shot on PostgreSQL: a connection or two is all a command uses.
  const service = await createService({ dbPath, seedNewDatabase: false, readers: 0, poolSize: poolSizeFrom() ?? 2, keyFile: keyFileFor(dbPath), onMigrating: reportMigrating, onRestoringIndexes: reportRestoring })
  try {
    return await run(service)
  } finally {
    await service.close()
  }
}

/**
 * A command that only reads a store (export, tail, db info, snapshot, push) refuses a file that is
 * not there, rather than create an empty store and answer from it as if it had no data. A
 * PostgreSQL server is asked when the command connects.
 */
export function assertStoreExists(dbPath: string): void {
  if (isPostgresUrl(dbPath) || existsSync(dbPath)) return
  throw new Error(`no store at ${dbPath}: give --db, or start the app or \`callscope serve\` once to create it`)
}
