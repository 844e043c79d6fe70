import { existsSync } from 'node:fs'
import Database from 'better-sqlite3'
import { openDatabase } from '../src-main/db/connection'
import { migrateToLatest } from '../src-main/db/migrate'

/**
 * The benches' scratch copy of the large demo store (`npm run bench` writes it; never written
 * here): copied with VACUUM INTO unless the copy exists, then migrated to the current schema.
 * Returns how long each step took, for the report.
 */
export async function migratedCopy(source: string, copy: string): Promise<{ copiedMs: number | null; migratedMs: number; version: string | null }> {
  let copiedMs: number | null = null
  if (!existsSync(copy)) {
    if (!existsSync(source)) throw new Error(`${source} is missing: run npm run bench first`)
    const t = performance.now()
    const from = new Database(source, { readonly: true })
    from.exec(`vacuum into '${copy.replace(/'/g, "''")}'`)
    from.close()
    copiedMs = performance.now() - t
  }
  const t = performance.now()
  const handle = openDatabase({ path: copy })
  const { current } = await migrateToLatest(handle.db)
  await handle.close()
  return { copiedMs, migratedMs: performance.now() - t, version: current }
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
