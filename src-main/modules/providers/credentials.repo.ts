import type { Kysely, Selectable } from 'kysely'
import type { Database, ProviderCredentialsTable } from '../../db/schema'

/** A stored credential, secret included: the table's own row type, so a new column shows up here. */
export type CredentialRow = Selectable<ProviderCredentialsTable>

export function findCredential(db: Kysely<Database>, kind: string, provider: string): Promise<CredentialRow | undefined> {
  return db
    .selectFrom('provider_credentials')
    .selectAll()
    .where('provider_kind', '=', kind)
    .where('provider', '=', provider)
    .executeTakeFirst()
}

/** Every stored credential without its secret, by kind then provider. */
export function listCredentials(db: Kysely<Database>) {
  return db
    .selectFrom('provider_credentials')
    .select(['provider_kind', 'provider', 'key_hint', 'base_url', 'created_at', 'updated_at'])
    .orderBy('provider_kind')
    .orderBy('provider')
    .execute()
}

/** Inserts or replaces; `created_at` of an existing row is kept. */
export async function upsertCredential(db: Kysely<Database>, row: CredentialRow): Promise<void> {
  await db
    .insertInto('provider_credentials')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['provider_kind', 'provider']).doUpdateSet({
        secret: row.secret,
        key_hint: row.key_hint,
        base_url: row.base_url,
        updated_at: row.updated_at,
      }),
    )
    .execute()
}

export async function deleteCredential(db: Kysely<Database>, kind: string, provider: string): Promise<boolean> {
  const result = await db
    .deleteFrom('provider_credentials')
    .where('provider_kind', '=', kind)
    .where('provider', '=', provider)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
