import type { Kysely } from 'kysely'
import { storeSql } from '../../db/store-sql'
import type { Database } from '../../db/schema'
import { agentsSql } from './agents.sql'

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
  if (filter.search?.trim()) query = query.where(storeSql(db).nameOrIdMatches('a.name', 'a.id', filter.search))
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

/**
 * Agents known only from a pull (pulled_agents: the call logs named them, their sessions listing
 * was fetched) and not shadowed by a local agent of the same id: the latest fetch of each, with
 * its tenant's name when the store has the tenant, its name when pulled squad analytics list it
 * as a member (agents.sql.ts), and the sessions the listing held. The backend has no agent profile operation, so
 * nothing else is known of them.
 */
export function listPulledAgents(db: Kysely<Database>, filter: AgentListFilter & { id?: string; source?: string }) {
  const { source } = filter
  let query = db
    .selectFrom('pulled_agents as a')
    // The agent's tenant as its own backend has it, else a local tenant of that id.
    .leftJoin('tenant_rows as t', (j) => j.onRef('t.id', '=', 'a.tenant_id').onRef('t.source', '=', 'a.source'))
    .leftJoin('tenants as lt', 'lt.id', 'a.tenant_id')
    .select((eb) => [
      'a.id',
      'a.tenant_id',
      eb.fn.coalesce('t.name', 'lt.name').as('tenant_name'),
      agentsSql(db).pulledAgentName().as('name'),
      'a.source',
      'a.fetched_at',
      eb
        .selectFrom('pulled_sessions as s')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('s.source', '=', 'a.source')
        .whereRef('s.agent_id', '=', 'a.id')
        .as('session_count'),
    ])
    .where(({ not, exists, selectFrom }) => {
      // The latest fetch of each agent, of one source when the caller names one.
      let later = selectFrom('pulled_agents as b').select('b.id').whereRef('b.id', '=', 'a.id').whereRef('b.fetched_at', '>', 'a.fetched_at')
      if (source !== undefined) later = later.whereRef('b.source', '=', 'a.source')
      return not(exists(later))
    })
  // Across every source a local agent of the same id shadows a pulled one; within one source it does not.
  if (source === undefined) query = query.where(({ not, exists, selectFrom }) => not(exists(selectFrom('agents as l').select('l.id').whereRef('l.id', '=', 'a.id'))))
  else query = query.where('a.source', '=', source)
  if (filter.id !== undefined) query = query.where('a.id', '=', filter.id)
  if (filter.tenantId) query = query.where('a.tenant_id', '=', filter.tenantId)
  if (filter.search?.trim()) query = query.where(storeSql(db).nameOrIdMatches(agentsSql(db).pulledAgentName(), 'a.id', filter.search))
  // An unknown tenant or name (null) first on both stores: SQLite puts nulls first by itself,
  // PostgreSQL last unless told.
  return query
    .orderBy('tenant_name', (ob) => ob.asc().nullsFirst())
    .orderBy('name', (ob) => ob.asc().nullsFirst())
    .orderBy('a.id')
    .execute()
}
