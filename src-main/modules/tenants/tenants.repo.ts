import type { Kysely } from 'kysely'
import type { Database, TenantRow } from '../../db/schema'

export function findTenant(db: Kysely<Database>, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()
}
