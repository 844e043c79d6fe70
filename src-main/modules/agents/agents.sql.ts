import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../../db/schema'
import { forStore } from '../../db/store-kind'

/** The agents list's fragments whose spelling differs between the stores (db/store-sql.ts's pattern). */
export interface AgentsSql {
  /**
   * A pulled agent's name as pulled squad analytics give it (`member_utilization[].agent_name`,
   * text only, the latest fetch of any source), over `pulled_agents as a`; null when no pulled
   * squad lists it.
   */
  pulledAgentName(): RawBuilder<string | null>
}

export const sqliteAgentsSql: AgentsSql = {
  // SQLite-only: json_each / json_extract / json_type of JSON1 over the stored answers.
  pulledAgentName: () => sql<string | null>`(select json_extract(m.value, '$.agent_name') from pulled_squad_analytics p, json_each(p.body, '$.member_utilization') m
    where json_extract(m.value, '$.agent_id') = a.id and json_type(m.value, '$.agent_name') = 'text' order by p.fetched_at desc limit 1)`,
}

export const postgresAgentsSql: AgentsSql = {
  // json_array_elements fails on anything but an array (json_each reads a missing member as no
  // rows): a member_utilization that is not an array gives no members. `->>` of a member that is
  // not an object is null, as json_extract's is. Collated "C" as the store's names are, so the
  // list orders and matches it as SQLite does (code points), whatever the database's locale.
  pulledAgentName: () => sql<string | null>`(select (m.value ->> 'agent_name') collate "C" from pulled_squad_analytics p
    cross join lateral json_array_elements(case when json_typeof(p.body -> 'member_utilization') = 'array' then p.body -> 'member_utilization' else '[]'::json end) as m(value)
    where m.value ->> 'agent_id' = a.id and json_typeof(m.value -> 'agent_name') = 'string' order by p.fetched_at desc limit 1)`,
}

export const agentsSql = (db: Kysely<Database>): AgentsSql => forStore(db, { sqlite: sqliteAgentsSql, postgres: postgresAgentsSql })
