import { sql } from 'kysely'
import { damagedMessage, storeFaultKind } from '../../src-shared/store-faults'
import type { DatabaseHandle } from './connection'
import { createReadPool } from './read-pool'
import { type HeaderCheck, problemsOfCheckRows, QUICK_CHECK_AT_ONCE_BYTES, QUICK_CHECK_SQL } from './store-check'

/*
 * SQLite-only: the check a store gets when the service opens it (issue 36). The header was read
 * before the file was opened (store-check.ts checkHeader); here the schema is read through and,
 * where the store has reader threads (serve, the desktop app), SQLite's quick_check runs on a
 * thread of its own: awaited on a small store, in the background on a large one, so it never holds
 * up the first answers. One-shot CLI commands stop at header and schema (`callscope db check` goes
 * further); their reads still name damage they meet. Damage found is noted in handle.health.
 */

export interface OpenCheck {
  /** Problems found before the service was handed out (header, schema, a small store's quick_check). */
  problems: string[]
  /** A large store's quick_check, still running: resolves with its problems ([] if it was stopped). */
  background: Promise<string[]> | null
  /** Stops a background check (the service is closing). */
  stop(): Promise<void>
}

/** The note handle.health keeps for damage the check found. */
export const checkDamageMessage = (storePath: string, problems: readonly string[]) =>
  damagedMessage('Checking the store', { storePath }, problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : ''))

/** SQLite's own words for an error the read pool or the writer already named (toStoreFault keeps them as the cause). */
const sqliteCause = (error: unknown): string => {
  const cause = (error as { cause?: unknown }).cause ?? error
  return ((cause as Error).message ?? String(cause)).replace(/^SQLITE_[A-Z_]+: /, '')
}

const sqliteMaster = (handle: DatabaseHandle) => sql`select type, name, tbl_name, sql from sqlite_master`.execute(handle.db)

export async function checkOnOpen(handle: DatabaseHandle, header: HeaderCheck): Promise<OpenCheck> {
  const found = (problems: string[]) => {
    if (problems.length) handle.health.noteDamage(checkDamageMessage(handle.path, problems))
    return problems
  }
  const problems = [...header.problems]
  try {
    await sqliteMaster(handle)
  } catch (error) {
    if (storeFaultKind(error) !== 'damaged') throw error
    problems.push(`the schema cannot be read: ${sqliteCause(error)}`)
  }
  if (!handle.readPool || problems.length) return { problems: found(problems), background: null, stop: async () => {} }

  // A thread of its own, not one of the pool's: a long check must not take a reader from requests.
  const checker = createReadPool({ path: handle.path, readers: 1, nativeBinding: handle.nativeBinding })
  let stopped = false
  const running = checker
    .read<Record<string, unknown>>(QUICK_CHECK_SQL, [])
    .then(problemsOfCheckRows, (error: unknown) => {
      if (stopped) return []
      if (storeFaultKind(error) !== 'damaged') throw error
      return [`the check stopped on damage: ${sqliteCause(error)}`]
    })
    .then((more) => (stopped ? [] : found(more)))
    .finally(() => checker.close())
  const stop = async () => {
    stopped = true
    await checker.close()
    await running.catch(() => {})
  }
  if (header.fileBytes <= QUICK_CHECK_AT_ONCE_BYTES) return { problems: [...problems, ...(await running)], background: null, stop }
  // A check that fails for another reason (the file went away) is no damage, and nobody awaits it.
  return { problems, background: running.catch(() => []), stop }
}
