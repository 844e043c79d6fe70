import type { Kysely, Selectable } from 'kysely'
import type { Database, PullSyncsTable } from '../../db/schema'

export type SyncRow = Selectable<PullSyncsTable>

/** A source's sync, started anew (its earlier row, if any, replaced). */
export function putSync(db: Kysely<Database>, row: SyncRow): Promise<unknown> {
  const { source: _s, ...fields } = row
  return db.insertInto('pull_syncs').values(row).onConflict((oc) => oc.column('source').doUpdateSet(fields)).execute()
}

export function updateSync(db: Kysely<Database>, source: string, set: Partial<Omit<SyncRow, 'source'>>): Promise<unknown> {
  return db.updateTable('pull_syncs').set(set).where('source', '=', source).execute()
}

export function listSyncs(db: Kysely<Database>): Promise<SyncRow[]> {
  return db.selectFrom('pull_syncs').selectAll().orderBy('source').execute()
}

export function findSync(db: Kysely<Database>, source: string): Promise<SyncRow | undefined> {
  return db.selectFrom('pull_syncs').selectAll().where('source', '=', source).executeTakeFirst()
}

/** Syncs recorded as under way (pulling, waiting or retrying), with the process that ran each. */
export function activeSyncs(db: Kysely<Database>): Promise<Array<Pick<SyncRow, 'source' | 'pid'>>> {
  return db.selectFrom('pull_syncs').select(['source', 'pid']).where('state', 'in', ['pulling', 'waiting', 'retrying']).execute()
}
