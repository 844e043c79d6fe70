import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { canSeeTenant, type Principal, sourceScope, tenantScope } from '../../kit/access'
import type { PulledFrom } from '../../kit/pulled'
import * as repo from './agents.repo'

const parseLanguages = (json: string): string[] => {
  try {
    const value = JSON.parse(json) as unknown
    return Array.isArray(value) ? value.map(String) : []
  } catch {
    return []
  }
}

export interface AgentListInput {
  tenantId?: string
  search?: string
}

/** One row of the console's agents list; a pulled agent has no profile, so its profile fields are null. */
export interface AgentSummary {
  id: string
  tenant_id: string | null
  tenant_name: string | null
  name: string | null
  languages: string[]
  primary_language: string | null
  llm_provider: string | null
  llm_model: string | null
  stt_provider: string | null
  stt_model: string | null
  tts_provider: string | null
  tts_model: string | null
  status: string | null
  session_count: number
  pulled: PulledFrom | null
}

type PulledRow = Awaited<ReturnType<typeof repo.listPulledAgents>>[number]

const pulledSummary = (r: PulledRow): AgentSummary => ({
  id: r.id,
  tenant_id: r.tenant_id,
  tenant_name: r.tenant_name,
  name: r.name,
  languages: [],
  primary_language: null,
  llm_provider: null,
  llm_model: null,
  stt_provider: null,
  stt_model: null,
  tts_provider: null,
  tts_model: null,
  status: null,
  session_count: Number(r.session_count ?? 0),
  pulled: { source: r.source, fetchedAt: r.fetched_at },
})

export function createAgentsService(db: Kysely<Database>) {
  return {
    /**
     * Agents the principal may see, local ones by tenant then name, then those known only from a
     * pull (by tenant, then id); a tenant token's filter is always its own tenant.
     */
    async list(principal: Principal, input: AgentListInput = {}): Promise<AgentSummary[]> {
      if (input.tenantId && !canSeeTenant(principal, input.tenantId)) return []
      const filter = { tenantId: tenantScope(principal) ?? input.tenantId, search: input.search }
      const source = sourceScope(principal)
      const [local, pulled] = await Promise.all([
        source === undefined || source === '' ? repo.listAgents(db, filter) : [],
        source === '' ? [] : repo.listPulledAgents(db, { ...filter, source }),
      ])
      return [
        ...local.map((r) => ({ ...r, languages: parseLanguages(r.languages), session_count: Number(r.session_count ?? 0), pulled: null })),
        // A pulled agent of no known tenant is shown to tokens that see every tenant only.
        ...pulled.filter((r) => canSeeTenant(principal, r.tenant_id)).map(pulledSummary),
      ]
    },
    /**
     * One agent's profile (`kind: 'local'`), or what a pull knows of one (`kind: 'pulled'`: id,
     * tenant, sessions, source); another tenant's agent is "not found".
     */
    async get(principal: Principal, agentId: string) {
      const source = sourceScope(principal)
      const row = source === undefined || source === '' ? await repo.findAgent(db, agentId) : undefined
      if (row) {
        if (!canSeeTenant(principal, row.tenant_id)) throw new NotFoundError('Agent')
        return { kind: 'local' as const, ...row, languages: parseLanguages(row.languages), session_count: Number(row.session_count ?? 0) }
      }
      const [pulled] = source === '' ? [] : await repo.listPulledAgents(db, { id: agentId, source })
      if (!pulled || !canSeeTenant(principal, pulled.tenant_id)) throw new NotFoundError('Agent')
      return { kind: 'pulled' as const, ...pulledSummary(pulled), pulled: { source: pulled.source, fetchedAt: pulled.fetched_at } }
    },
  }
}

export type AgentsService = ReturnType<typeof createAgentsService>
