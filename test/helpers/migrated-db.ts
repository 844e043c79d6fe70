import { openDatabase, type DatabaseHandle } from '../../src-main/db/connection'
import { migrateToLatest } from '../../src-main/db/migrate'

/** A private in-memory store built by the real migrations. */
export async function migratedDb(): Promise<DatabaseHandle> {
  const handle = openDatabase({ path: ':memory:' })
  await migrateToLatest(handle.db)
  return handle
}
