import { type CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely'
import type { JsonReads } from '../../db/json-reads'
import { queryTemplate } from '../../db/query-template'
import type { Database } from '../../db/schema'

/** A preview is cut to this many characters (code points), the last one an ellipsis. */
export const PREVIEW_LENGTH = 120

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
    .select([pulledEnvelopeJson(limit, offset).as('json'), 'a.tenant_id'])
    .where('a.id', '=', agentId)
  if (source !== undefined) query = query.where('a.source', '=', source)
  query = query.orderBy('a.fetched_at', 'desc').limit(1)
  const { bytes, rows, last } = await json.bytes(query, { framing: 'one', last: ['tenant_id'] })
  return rows === 0 ? null : { bytes, tenantId: last!.tenant_id as string | null }
}

type PageParams = { agentId: string; limit: number; offset: number }

// The hottest read of the REST port has one shape: compiled once per database (query-template.ts).
const templates = new WeakMap<Kysely<Database>, (params: PageParams) => CompiledQuery<{ json: Uint8Array; tenant_id: string }>>()

function sessionsPageQuery(db: Kysely<Database>) {
  let template = templates.get(db)
  if (!template) {
    template = queryTemplate(['agentId', 'limit', 'offset'], (p: PageParams) =>
      db
        .selectFrom('agents as a')
        .select([sessionEnvelopeJson(p.limit, p.offset).as('json'), 'a.tenant_id'])
        .where('a.id', '=', p.agentId),
    )
    templates.set(db, template)
  }
  return template
}

/**
 * The envelope of agent `a`'s sessions page: each session's message count and the preview of its
 * last non-empty message (cut to PREVIEW_LENGTH characters, ending in "…" when cut), the total,
 * and the page's limit and offset, in the spec's field order.
 */
// SQLite-only: JSON1 json_object/json_group_array (ordered aggregate), length/substr counting
// characters, cast to a BLOB so the text reaches JavaScript as UTF-8 bytes (a bound JS number is a
// REAL to SQLite, and json_object would write 10.0: hence the integer casts). PostgreSQL:
// json_build_object/json_agg(… order by …), char_length/substr, convert_to(…::text, 'UTF8').
function sessionEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array> {
  const cut = PREVIEW_LENGTH - 1
  return sql<Uint8Array>`cast(json_object(
    'sessions', (
      select json_group_array(json(p.item) order by p.created_at desc, p.id desc) from (
        select c.id, c.created_at, json_object(
          'conversation_id', c.id,
          'created_at', c.created_at,
          'updated_at', c.updated_at,
          'message_count', (select count(*) from messages m where m.conversation_id = c.id),
          'last_message_preview', coalesce((
            select case when length(m.content) > ${PREVIEW_LENGTH} then substr(m.content, 1, ${cut}) || '…' else m.content end
            from messages m where m.conversation_id = c.id and m.content <> '' order by m.position desc limit 1
          ), '')
        ) as item
        from conversations c where c.agent_id = a.id
        order by c.created_at desc, c.id desc limit ${limit} offset ${offset}
      ) p
    ),
    'total', (select count(*) from conversations c where c.agent_id = a.id),
    'limit', cast(${limit} as integer),
    'offset', cast(${offset} as integer)
  ) as blob)`
}

/** The envelope of pulled agent `a`'s page, built as sessionEnvelopeJson builds a local one. */
// SQLite-only, as sessionEnvelopeJson.
function pulledEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array> {
  return sql<Uint8Array>`cast(json_object(
    'sessions', (
      select json_group_array(json(p.item) order by p.position) from (
        select s.position, json_object(
          'conversation_id', s.conversation_id,
          'created_at', s.created_at,
          'updated_at', s.updated_at,
          'message_count', s.message_count,
          'last_message_preview', s.last_message_preview
        ) as item
        from pulled_sessions s where s.source = a.source and s.agent_id = a.id
        order by s.position limit ${limit} offset ${offset}
      ) p
    ),
    'total', (select count(*) from pulled_sessions s where s.source = a.source and s.agent_id = a.id),
    'limit', cast(${limit} as integer),
    'offset', cast(${offset} as integer)
  ) as blob)`
}
