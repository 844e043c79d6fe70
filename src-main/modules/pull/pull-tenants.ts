import { tenantSchema } from '../../../src-shared/schemas/tenant'
import type { NewTenant } from '../../db/schema'
import { refusalReason } from '../../kit/refusal'
import type { PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

/** A tenant profile as the remote sends it, checked and turned into a store row. */
function tenantRow(value: unknown): { row: NewTenant } | { reason: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { reason: 'not a JSON object' }
  const parsed = tenantSchema.safeParse(value, { reportInput: true })
  if (!parsed.success) return { reason: refusalReason(parsed.error, value as Record<string, unknown>) }
  const t = parsed.data
  const flag = (b: boolean) => (b ? 1 : 0)
  return {
    row: {
      ...t,
      id: t.id.toLowerCase(),
      sip_enabled: flag(t.sip_enabled),
      recording_enabled: flag(t.recording_enabled),
      analytics_enabled: flag(t.analytics_enabled),
      hipaa_enabled: flag(t.hipaa_enabled),
      pci_enabled: flag(t.pci_enabled),
      data_encryption_enabled: flag(t.data_encryption_enabled),
      meta_data: t.meta_data == null ? null : JSON.stringify(t.meta_data),
      sip_domain: t.sip_domain ?? null,
      sip_username: t.sip_username ?? null,
      webhook_url: t.webhook_url ?? null,
    },
  }
}

/** Fetches one tenant profile into pulled_tenants, under the pull's source; a missing one ends the pull only if asked for by name. */
export async function pullTenant(run: PullRun, id: string, required: boolean): Promise<void> {
  const { counts } = run
  let body: unknown
  try {
    body = await run.client.getJson(`/tenants/${encodeURIComponent(id)}`)
  } catch (error) {
    if (error instanceof RemoteError && error.kind === 'not_found' && !required) {
      counts.tenants.missing++
      run.problem(`tenant ${id}`, error.message)
      return run.finishStep(`tenant:${id}`, id)
    }
    if (error instanceof RemoteError && error.kind === 'not_found') throw new RemoteError(`tenant ${id} is not on the remote (${error.message})`, 'not_found', 404)
    throw error
  }
  const checked = tenantRow(body)
  if ('reason' in checked) {
    counts.tenants.invalid++
    run.problem(`tenant ${id}`, `not a valid tenant, not stored: ${checked.reason}`)
    return
  }
  try {
    await repo.upsertPulledTenant(run.db, { ...checked.row, source: run.source, fetched_at: new Date().toISOString(), pull_id: run.row.id })
    counts.tenants.fetched++
    await run.finishStep(`tenant:${id}`, id)
  } catch (error) {
    counts.tenants.invalid++
    run.problem(`tenant ${id}`, `the store refused it: ${(error as Error).message}`)
  }
}

/** The profiles of the tenants the call logs named, besides the pull's own; those fetched by an interrupted pull are skipped. */
export async function pullKnownTenants(run: PullRun): Promise<void> {
  for (const { id, state } of await run.known('tenant:')) {
    if (id === run.tenantId) continue
    if (run.finishedEarlier(state)) run.counts.skipped++
    else await pullTenant(run, id, false)
  }
}
