import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

export function findAgentTenant(db: Kysely<Database>, agentId: string) {
  return db.selectFrom('agents').select(['id', 'tenant_id']).where('id', '=', agentId).executeTakeFirst()
}
