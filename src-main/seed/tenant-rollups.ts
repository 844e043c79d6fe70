import type { StoryContext } from './conversation-story'
import type { Organization } from './organization'

const DAY = 86_400_000

/**
 * Tenant-level lines that belong to no call (call_id, session_id and agent_id are null):
 * the nightly usage rollup and the occasional provider key rotation.
 */
export function writeTenantRollups(ctx: StoryContext, org: Organization, days: number): void {
  const { rng, anchor, write } = ctx
  const dayStart = Math.floor(anchor / DAY) * DAY
  for (const tenant of org.tenants) {
    for (let d = days; d >= 1; d--) {
      const at = dayStart - d * DAY + 2 * 3_600_000 + rng.int(0, 600_000)
      write.log({
        id: rng.uuid(),
        tenant_id: tenant.id,
        log_type: 'system',
        log_level: 'info',
        message: `Nightly usage rollup for ${tenant.name} completed`,
        timestamp: new Date(at).toISOString(),
        agent_id: null,
        session_id: null,
        call_id: null,
        details: JSON.stringify({ job: 'usage_rollup', day: new Date(at - DAY).toISOString().slice(0, 10), duration_ms: rng.int(300, 4000) }),
        user_id: null,
        trace_id: rng.hex(32),
        request_id: null,
      })
      if (rng.bool(0.05)) {
        const provider = rng.pick(org.agents.filter((a) => a.tenantId === tenant.id)).llm.provider
        write.log({
          id: rng.uuid(),
          tenant_id: tenant.id,
          log_type: 'system',
          log_level: 'warning',
          message: `API key for ${provider} expires in 7 days; rotate it in provider settings`,
          timestamp: new Date(at + 60_000).toISOString(),
          agent_id: null,
          session_id: null,
          call_id: null,
          details: JSON.stringify({ provider, expires_in_days: 7 }),
          user_id: 'admin',
          trace_id: null,
          request_id: null,
        })
      }
    }
  }
}
