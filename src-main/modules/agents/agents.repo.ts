import type { Kysely } from 'kysely'
import { nameOrIdMatches } from '../../db/name-search'
import type { Database } from '../../db/schema'

export interface AgentListFilter {
  /** Only this tenant's agents (a tenant filter, or the principal's own tenant). */
  tenantId?: string
  /** Case-insensitive match on name, or an id prefix. */
  search?: string
}

/** Agents with their tenant's name and session count, by tenant then name (the `agents_tenant` index order). */
export function listAgents(db: Kysely<Database>, filter: AgentListFilter) {
  let query = db
    .selectFrom('agents as a')
    .innerJoin('tenants as t', 't.id', 'a.tenant_id')
    .select((eb) => [
      'a.id',
      'a.tenant_id',
      't.name as tenant_name',
      'a.name',
      'a.languages',
      'a.primary_language',
      'a.llm_provider',
      'a.llm_model',
      'a.stt_provider',
      'a.stt_model',
      'a.tts_provider',
      'a.tts_model',
      'a.status',
      // Counted in the (agent_id, created_at, id) index: no table rows read.
      eb.selectFrom('conversations as c').select((c) => c.fn.countAll<number>().as('n')).whereRef('c.agent_id', '=', 'a.id').as('session_count'),
    ])
  if (filter.tenantId) query = query.where('a.tenant_id', '=', filter.tenantId)
  if (filter.search?.trim()) query = query.where(nameOrIdMatches('a.name', 'a.id', filter.search))
  return query.orderBy('t.name').orderBy('a.name').orderBy('a.id').execute()
}

/** One agent with its tenant's name and session count. */
export function findAgent(db: Kysely<Database>, agentId: string) {
  return db
    .selectFrom('agents as a')
    .innerJoin('tenants as t', 't.id', 'a.tenant_id')
    .selectAll('a')
    .select((eb) => [
      't.name as tenant_name',
      eb.selectFrom('conversations as c').select((c) => c.fn.countAll<number>().as('n')).whereRef('c.agent_id', '=', 'a.id').as('session_count'),
    ])
    .where('a.id', '=', agentId)
    .executeTakeFirst()
}
