import { type Kysely, Migrator } from 'kysely'
import { restated } from '../../src-shared/store-faults'
import { migrations } from './migrations'
import { pgMigrations } from './pg-migrations'
import { forStore } from './store-kind'

export interface SchemaVersion {
  /** Name of the newest applied migration, or null on an empty database. */
  current: string | null
  applied: number
  available: number
}

function migrator(db: Kysely<any>): Migrator {
  // Unordered: a store migrated by a build that had a later-numbered migration (0016, 0018) before
  // an earlier-numbered one landed (0015) still takes the missing one, instead of refusing to open.
  // Each store has its list (db/pg-migrations for PostgreSQL); both run on start.
  const list = forStore(db, { sqlite: migrations, postgres: pgMigrations })
  return new Migrator({ db, provider: { getMigrations: async () => list }, allowUnorderedMigrations: true })
}

/** Brings the schema to the newest version; a no-op when it is already there. */
export async function migrateToLatest(db: Kysely<any>): Promise<SchemaVersion> {
  const { error } = await migrator(db).migrateToLatest()
  // Pending migrations run in one transaction (store-dialect.ts; PostgreSQL's DDL is transactional
  // too): a full disk part way leaves the store as the previous build left it, and opens with it.
  if (error) throw restated(error instanceof Error ? error : new Error(String(error)), "Updating the store's schema", 'The store is as it was: no migration was applied.')
  return schemaVersion(db)
}

/** Names of the migrations not applied yet, in order. */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name)
}

export async function schemaVersion(db: Kysely<any>): Promise<SchemaVersion> {
  const all = await migrator(db).getMigrations()
  const applied = all.filter((m) => m.executedAt !== undefined)
  return {
    current: applied.at(-1)?.name ?? null,
    applied: applied.length,
    available: all.length,
  }
}
