import { type Kysely, type Selectable, sql } from 'kysely'
import { storeSql } from '../../db/store-sql'
import type { Database, TenantRowsView } from '../../db/schema'

/** A tenant as stored, local (source '') or pulled from a backend (tenant_rows, migration 0018). */
export type SourcedTenantRow = Selectable<TenantRowsView>

/**
 * The tenant with this id in `source`; for every source (undefined), the local one first, then the
 * one fetched last: what the store answered before it kept more than one source.
 */
export function findTenant(db: Kysely<Database>, id: string, source: string | undefined): Promise<SourcedTenantRow | undefined> {
  let query = db.selectFrom('tenant_rows').selectAll().where('id', '=', id)
  if (source !== undefined) query = query.where('source', '=', source)
  return query.orderBy(sql`source = ''`, 'desc').orderBy('fetched_at', 'desc').limit(1).executeTakeFirst()
}

export interface TenantListFilter {
  /** Case-insensitive match on name or id prefix. */
  search?: string
  /** Limits the list to one tenant (tenant-scoped tokens). */
  onlyId?: string
  /** Limits the list to one source ('' local, a backend's base URL). */
  source?: string
}

/** Tenants by name, each source's own (a tenant two backends share is listed once per source), with the figures the list shows beside each. */
export function listTenants(db: Kysely<Database>, filter: TenantListFilter) {
  let query = db
    .selectFrom('tenant_rows as t')
    .select((eb) => [
      't.id',
      't.source',
      't.name',
      't.billing_plan',
      't.status',
      't.monthly_usage_cents',
      't.monthly_call_limit',
      't.hipaa_enabled',
      't.pci_enabled',
      't.sip_enabled',
      // Local agents for a local tenant; the agents a pull saw for a pulled one.
      eb
        .case()
        .when('t.source', '=', '')
        .then(eb.selectFrom('agents as a').select((a) => a.fn.countAll<number>().as('n')).whereRef('a.tenant_id', '=', 't.id'))
        .else(eb.selectFrom('pulled_agents as p').select((a) => a.fn.countAll<number>().as('n')).whereRef('p.tenant_id', '=', 't.id').whereRef('p.source', '=', 't.source'))
        .end()
        .as('agent_count'),
    ])
  if (filter.onlyId) query = query.where('t.id', '=', filter.onlyId)
  if (filter.source !== undefined) query = query.where('t.source', '=', filter.source)
  if (filter.search?.trim()) query = query.where(storeSql(db).nameOrIdMatches('t.name', 't.id', filter.search))
  return query.orderBy('t.name').orderBy('t.id').orderBy('t.source').execute()
}

/** Calls started since `since` and their total duration, for usage against the plan's limits. */
export async function callUsage(db: Kysely<Database>, tenantId: string, since: string) {
  const row = await db
    .selectFrom('calls')
    .select((eb) => [eb.fn.countAll<number>().as('calls'), eb.fn.sum<number>('duration_ms').as('duration_ms')])
    .where('tenant_id', '=', tenantId)
    .where('started_at', '>=', since)
    .executeTakeFirstOrThrow()
  return { calls: Number(row.calls), durationMs: Number(row.duration_ms ?? 0) }
}
