import type { Kysely } from 'kysely'
import { nameOrIdMatches } from '../../db/name-search'
import type { Database, TenantRow } from '../../db/schema'

export function findTenant(db: Kysely<Database>, id: string): Promise<TenantRow | undefined> {
  return db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst()
}

export interface TenantListFilter {
  /** Case-insensitive match on name or id prefix. */
  search?: string
  /** Limits the list to one tenant (tenant-scoped tokens). */
  onlyId?: string
}

/** Tenants by name, with the figures the list shows beside each. */
export function listTenants(db: Kysely<Database>, filter: TenantListFilter) {
  let query = db
    .selectFrom('tenants as t')
    .select((eb) => [
      't.id',
      't.name',
      't.billing_plan',
      't.status',
      't.monthly_usage_cents',
      't.monthly_call_limit',
      't.hipaa_enabled',
      't.pci_enabled',
      't.sip_enabled',
      eb.selectFrom('agents as a').select((a) => a.fn.countAll<number>().as('n')).whereRef('a.tenant_id', '=', 't.id').as('agent_count'),
    ])
  if (filter.onlyId) query = query.where('t.id', '=', filter.onlyId)
  if (filter.search?.trim()) query = query.where(nameOrIdMatches('t.name', 't.id', filter.search))
  return query.orderBy('t.name').orderBy('t.id').execute()
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
