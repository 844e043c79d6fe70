import type { Kysely } from 'kysely'
import type { Tenant } from '../../../src-shared/schemas/tenant'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { findOrigin, type Origin } from '../origins/origins.repo'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import * as repo from './tenants.repo'

/** Maps a stored row to the spec's Tenant object (0/1 flags to booleans, JSON text to objects). */
export function toTenant(row: repo.SourcedTenantRow): Tenant {
  return {
    id: row.id,
    name: row.name,
    billing_plan: row.billing_plan,
    status: row.status,
    sip_enabled: row.sip_enabled === 1,
    recording_enabled: row.recording_enabled === 1,
    analytics_enabled: row.analytics_enabled === 1,
    max_concurrent_calls: row.max_concurrent_calls,
    monthly_call_limit: row.monthly_call_limit,
    monthly_usage_cents: row.monthly_usage_cents,
    meta_data: row.meta_data === null ? null : (JSON.parse(row.meta_data) as Record<string, unknown>),
    sip_domain: row.sip_domain,
    sip_username: row.sip_username,
    hipaa_enabled: row.hipaa_enabled === 1,
    pci_enabled: row.pci_enabled === 1,
    recording_format: row.recording_format,
    retention_days: row.retention_days,
    data_encryption_enabled: row.data_encryption_enabled === 1,
    webhook_url: row.webhook_url,
    webhook_timeout_seconds: row.webhook_timeout_seconds,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function createTenantsService(db: Kysely<Database>) {
  async function visibleRow(principal: Principal, id: string): Promise<repo.SourcedTenantRow> {
    const row = canSeeTenant(principal, id) ? await repo.findTenant(db, id, sourceScope(principal)) : undefined
    if (!row) throw new NotFoundError('Tenant')
    return row
  }

  return {
    /** Tenants a principal may see, for the console's list. */
    async list(principal: Principal, search?: string) {
      const rows = await repo.listTenants(db, { search, onlyId: tenantScope(principal), source: sourceScope(principal) })
      return rows.map((r) => ({
        ...r,
        agent_count: Number(r.agent_count ?? 0),
        hipaa_enabled: r.hipaa_enabled === 1,
        pci_enabled: r.pci_enabled === 1,
        sip_enabled: r.sip_enabled === 1,
      }))
    },
    /** This month's calls (UTC calendar month) beside the tenant's limits. */
    async usage(principal: Principal, id: string, now = new Date()) {
      const tenant = await this.get(principal, id)
      const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString()
      const { calls, durationMs } = await repo.callUsage(db, id, monthStart)
      return {
        month_start: monthStart,
        calls_this_month: calls,
        minutes_this_month: Math.round(durationMs / 60000),
        monthly_call_limit: tenant.monthly_call_limit,
        max_concurrent_calls: tenant.max_concurrent_calls,
        monthly_usage_cents: tenant.monthly_usage_cents,
      }
    },
    async get(principal: Principal, id: string): Promise<Tenant> {
      return toTenant(await visibleRow(principal, id))
    },
    /** The pull that last wrote the tenant; null for a tenant created in this store. */
    async origin(principal: Principal, id: string): Promise<Origin | null> {
      return findOrigin(db, await visibleRow(principal, id))
    },
  }
}

export type TenantsService = ReturnType<typeof createTenantsService>
