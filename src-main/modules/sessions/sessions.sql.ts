import { type Kysely, type RawBuilder, sql } from 'kysely'
import { jsonInstant, jsonNumber, jsonString } from '../../db/pg-json'
import type { Database } from '../../db/schema'
import { forStore } from '../../db/store-kind'

/** A preview is cut to this many characters (code points), the last one an ellipsis. */
export const PREVIEW_LENGTH = 120

/** The sessions listing's envelope built by the query, per store (db/store-sql.ts's pattern). */
export interface SessionsSql {
  /** The JSON envelope of agent `a`'s sessions page (sessions.repo.ts agentSessionsPage). */
  sessionEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array | string>
  /** The envelope of pulled agent `a`'s page, built the same way. */
  pulledEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array | string>
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
function sqliteSessionEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array> {
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
function sqlitePulledEnvelopeJson(limit: number, offset: number): RawBuilder<Uint8Array> {
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

const sqliteSessionsSql: SessionsSql = { sessionEnvelopeJson: sqliteSessionEnvelopeJson, pulledEnvelopeJson: sqlitePulledEnvelopeJson }

/*
 * The same envelopes from PostgreSQL, byte for byte (db/pg-json.ts writes JSON as SQLite's
 * json_object does): string_agg of each item's JSON text in the page's order, char_length/substr
 * counting characters as SQLite's length/substr do. A bound JS number is text to pg: cast.
 */
function postgresSessionEnvelopeJson(limit: number, offset: number): RawBuilder<string> {
  const cut = PREVIEW_LENGTH - 1
  const item = sql<string>`'{"conversation_id":' || ${jsonString(sql.ref('c.id'))}
    || ',"created_at":' || ${jsonInstant(sql.ref('c.created_at'))}
    || ',"updated_at":' || ${jsonInstant(sql.ref('c.updated_at'))}
    || ',"message_count":' || (select count(*) from messages m where m.conversation_id = c.id)::text
    || ',"last_message_preview":' || to_json(coalesce((
      select case when char_length(m.content) > ${PREVIEW_LENGTH} then substr(m.content, 1, ${cut}) || '…' else m.content end
      from messages m where m.conversation_id = c.id and m.content <> '' order by m.position desc limit 1
    ), ''))::text || '}'`
  return sql<string>`'{"sessions":' || coalesce((
      select '[' || string_agg(p.item, ',' order by p.created_at desc, p.id desc) || ']' from (
        select c.id, c.created_at, ${item} as item
        from conversations c where c.agent_id = a.id
        order by c.created_at desc, c.id desc limit ${limit}::bigint offset ${offset}::bigint
      ) p
    ), '[]')
    || ',"total":' || (select count(*) from conversations c where c.agent_id = a.id)::text
    || ',"limit":' || ${limit}::bigint::text
    || ',"offset":' || ${offset}::bigint::text || '}'`
}

function postgresPulledEnvelopeJson(limit: number, offset: number): RawBuilder<string> {
  // A pulled listing's times are the remote's text, as it answered (pulled_sessions keeps text).
  const item = sql<string>`'{"conversation_id":' || ${jsonString(sql.ref('s.conversation_id'))}
    || ',"created_at":' || ${jsonString(sql.ref('s.created_at'))}
    || ',"updated_at":' || ${jsonString(sql.ref('s.updated_at'))}
    || ',"message_count":' || ${jsonNumber(sql.ref('s.message_count'))}
    || ',"last_message_preview":' || ${jsonString(sql.ref('s.last_message_preview'))} || '}'`
  return sql<string>`'{"sessions":' || coalesce((
      select '[' || string_agg(p.item, ',' order by p.position) || ']' from (
        select s.position, ${item} as item
        from pulled_sessions s where s.source = a.source and s.agent_id = a.id
        order by s.position limit ${limit}::bigint offset ${offset}::bigint
      ) p
    ), '[]')
    || ',"total":' || (select count(*) from pulled_sessions s where s.source = a.source and s.agent_id = a.id)::text
    || ',"limit":' || ${limit}::bigint::text
    || ',"offset":' || ${offset}::bigint::text || '}'`
}

const postgresSessionsSql: SessionsSql = { sessionEnvelopeJson: postgresSessionEnvelopeJson, pulledEnvelopeJson: postgresPulledEnvelopeJson }

/** The fragments for the store `db` runs on. */
export const sessionsSql = (db: Kysely<Database>): SessionsSql => forStore(db, { sqlite: sqliteSessionsSql, postgres: postgresSessionsSql })
