import type { CompiledQuery, Kysely } from 'kysely'
import type { JsonReads } from '../../db/json-reads'
import { queryTemplate } from '../../db/query-template'
import type { Database } from '../../db/schema'
import { sessionsSql } from './sessions.sql'

export { PREVIEW_LENGTH } from './sessions.sql'

export interface SessionPageJson {
  /** The listing's envelope as the API sends it: `{"sessions":[…],"total":…,"limit":…,"offset":…}`. */
  bytes: Uint8Array<ArrayBuffer>
  /** The agent's tenant, for the caller's visibility check; null for a pulled agent of no known tenant. */
  tenantId: string | null
}

/**
 * One page of an agent's sessions, newest first (`id` breaks ties so pages never overlap), with the
 * agent's session count, as the API's envelope in JSON: one query and one trip to a reader for
 * the whole answer. Null when there is no such agent.
 */
export async function agentSessionsPage(db: Kysely<Database>, json: JsonReads, agentId: string, limit: number, offset: number): Promise<SessionPageJson | null> {
  const query = sessionsPageQuery(db)({ agentId, limit, offset })
  const { bytes, rows, last } = await json.bytes(query, { framing: 'one', last: ['tenant_id'] })
  return rows === 0 ? null : { bytes, tenantId: last!.tenant_id as string }
}

/**
 * The same page for an agent known only from a pull (pulled_agents): its listing as the remote
 * answered it, in the remote's order. When two sources have the agent, the latest fetch answers,
 * unless the caller names one.
 */
export async function pulledAgentSessionsPage(
  db: Kysely<Database>,
  json: JsonReads,
  agentId: string,
  limit: number,
  offset: number,
  /** One source's agent only; absent: the latest fetch of any. */
  source?: string,
): Promise<SessionPageJson | null> {
  let query = db
    .selectFrom('pulled_agents as a')
    .select([sessionsSql(db).pulledEnvelopeJson(limit, offset).as('json'), 'a.tenant_id'])
    .where('a.id', '=', agentId)
  if (source !== undefined) query = query.where('a.source', '=', source)
  query = query.orderBy('a.fetched_at', 'desc').limit(1)
  const { bytes, rows, last } = await json.bytes(query, { framing: 'one', last: ['tenant_id'] })
  return rows === 0 ? null : { bytes, tenantId: last!.tenant_id as string | null }
}

type PageParams = { agentId: string; limit: number; offset: number }

// The hottest read of the REST port has one shape: compiled once per database (query-template.ts).
const templates = new WeakMap<Kysely<Database>, (params: PageParams) => CompiledQuery<{ json: Uint8Array | string; tenant_id: string }>>()

function sessionsPageQuery(db: Kysely<Database>) {
  let template = templates.get(db)
  if (!template) {
    template = queryTemplate(['agentId', 'limit', 'offset'], (p: PageParams) =>
      db
        .selectFrom('agents as a')
        .select([sessionsSql(db).sessionEnvelopeJson(p.limit, p.offset).as('json'), 'a.tenant_id'])
        .where('a.id', '=', p.agentId),
    )
    templates.set(db, template)
  }
  return template
}
