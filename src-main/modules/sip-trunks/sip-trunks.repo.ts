import type { Insertable, Kysely, Selectable } from 'kysely'
import type { Database, SipInboundTrunksTable } from '../../db/schema'

export type SipTrunkRow = Selectable<SipInboundTrunksTable>
export type NewSipTrunkRow = Insertable<SipInboundTrunksTable>

/** Stored inbound trunks by name then id (stable); only one tenant's when `tenantId` is given. */
export function listStoredTrunks(db: Kysely<Database>, tenantId?: string): Promise<SipTrunkRow[]> {
  let query = db.selectFrom('sip_inbound_trunks').selectAll()
  if (tenantId) query = query.where('tenant_id', '=', tenantId)
  return query.orderBy('name').orderBy('sip_trunk_id').execute()
}

/** What the store already knows about these trunks: their tenant mapping and creation time. */
export function findTrunkMappings(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([])
  return db
    .selectFrom('sip_inbound_trunks')
    .select(['sip_trunk_id', 'tenant_id', 'created_at'])
    .where('sip_trunk_id', 'in', ids)
    .execute()
}

/** Which of these tenant ids exist (a trunk's tenant_id is a foreign key). */
export async function existingTenantIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows = await db.selectFrom('tenants').select('id').where('id', 'in', ids).execute()
  return new Set(rows.map((r) => r.id))
}

/**
 * Inserts or refreshes trunks listed live, as `source = 'livekit'`, in one transaction. A stored
 * tenant mapping is kept (the incoming tenant only fills an empty one); rows LiveKit no longer
 * lists are left alone, since calls reference them.
 */
export async function upsertLiveTrunks(db: Kysely<Database>, rows: readonly NewSipTrunkRow[]): Promise<void> {
  if (rows.length === 0) return
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .insertInto('sip_inbound_trunks')
        .values(row)
        .onConflict((oc) =>
          oc.column('sip_trunk_id').doUpdateSet((eb) => ({
            tenant_id: eb.fn.coalesce('sip_inbound_trunks.tenant_id', 'excluded.tenant_id'),
            name: eb.ref('excluded.name'),
            numbers: eb.ref('excluded.numbers'),
            allowed_addresses: eb.ref('excluded.allowed_addresses'),
            allowed_numbers: eb.ref('excluded.allowed_numbers'),
            auth_username: eb.ref('excluded.auth_username'),
            auth_password_set: eb.ref('excluded.auth_password_set'),
            metadata: eb.ref('excluded.metadata'),
            krisp_enabled: eb.ref('excluded.krisp_enabled'),
            source: eb.ref('excluded.source'),
            created_at: eb.ref('excluded.created_at'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute()
    }
  })
}

/** Whether the store has any trunk of its own (stored or written back from LiveKit). */
export async function hasStoredTrunks(db: Kysely<Database>): Promise<boolean> {
  return (await db.selectFrom('sip_inbound_trunks').select('sip_trunk_id').limit(1).executeTakeFirst()) !== undefined
}

/** The trunk list of the latest pull that fetched one (of `source`, when given), in the remote's order; empty when none did. */
export function latestPulledTrunks(db: Kysely<Database>, source?: string) {
  return db
    .selectFrom('pulled_sip_trunks')
    .select(['source', 'tenant_id', 'body', 'fetched_at'])
    .where('source', '=', (eb) => (source !== undefined ? eb.val(source) : eb.selectFrom('pulled_sip_trunks').select('source').orderBy('fetched_at', 'desc').limit(1)))
    .orderBy('position')
    .execute()
}
