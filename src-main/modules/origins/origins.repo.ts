import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** Where a stored row came from: the import (file) or pull (base URL) that wrote it, and when. */
export interface Origin {
  kind: 'import' | 'pull'
  id: string
  /** The imported file's name, or the pulled backend's base URL. */
  source: string
  /** When that import or pull started. */
  at: string
}

/** The origin a row records (migration 0006-origins); null for local and seeded rows. */
export async function findOrigin(db: Kysely<Database>, row: { import_id?: string | null; pull_id?: string | null }): Promise<Origin | null> {
  if (row.import_id) {
    const found = await db.selectFrom('imports').select(['id', 'source', 'started_at']).where('id', '=', row.import_id).executeTakeFirst()
    if (found) return { kind: 'import', id: found.id, source: found.source, at: found.started_at }
  }
  if (row.pull_id) {
    const found = await db.selectFrom('pulls').select(['id', 'source', 'started_at']).where('id', '=', row.pull_id).executeTakeFirst()
    if (found) return { kind: 'pull', id: found.id, source: found.source, at: found.started_at }
  }
  return null
}
