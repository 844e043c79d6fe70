import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { canSeeTenant, type Principal, tenantScope } from '../../kit/access'
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

export function createAgentsService(db: Kysely<Database>) {
  return {
    /** Agents the principal may see; a tenant token's filter is always its own tenant. */
    async list(principal: Principal, input: AgentListInput = {}) {
      if (input.tenantId && !canSeeTenant(principal, input.tenantId)) return []
      const rows = await repo.listAgents(db, { tenantId: tenantScope(principal) ?? input.tenantId, search: input.search })
      return rows.map((r) => ({ ...r, languages: parseLanguages(r.languages), session_count: Number(r.session_count ?? 0) }))
    },
    /** One agent's profile; another tenant's agent is "not found". */
    async get(principal: Principal, agentId: string) {
      const row = await repo.findAgent(db, agentId)
      if (!row || !canSeeTenant(principal, row.tenant_id)) throw new NotFoundError('Agent')
      return { ...row, languages: parseLanguages(row.languages), session_count: Number(row.session_count ?? 0) }
    },
  }
}

export type AgentsService = ReturnType<typeof createAgentsService>
