import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Pulled agents and their sessions as rows (issue 15), served by `GET /agents/{id}/sessions` like
 * local ones, where they were JSON documents. A pulled session is the listing's item, kept as the
 * remote answered it, with its place in the remote's listing (`position`), so a mirror lists them
 * in the remote's order, ties included. `pulled_agents` records every agent whose listing was
 * fetched, so one with no sessions is still known (an empty list, not a 404). Keyed by source:
 * two backends may share ids. Session documents stored by earlier pulls are moved into the rows
 * (their order: newest first, as the listing sorts). Frozen snapshot.
 */
async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pulled_agents')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull().check(sql`length(id) between 1 and 255`))
    .addColumn('tenant_id', 'text')
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addColumn('pull_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_agents_pk', ['source', 'id'])
    .modifyEnd(sql`strict`)
    .execute()
  await db.schema.createIndex('pulled_agents_id').on('pulled_agents').columns(['id', 'fetched_at']).execute()

  await db.schema
    .createTable('pulled_sessions')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().check(sql`position >= 0`))
    .addColumn('conversation_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('message_count', 'integer', (c) => c.notNull())
    .addColumn('last_message_preview', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('pulled_sessions_pk', ['source', 'agent_id', 'position'])
    .modifyEnd(sql`strict`)
    .execute()

  await sql`insert into pulled_agents (source, id, tenant_id, fetched_at, pull_id)
    select d.source, json_extract(d.body, '$.agent_id'), null, max(d.fetched_at), max(d.pull_id)
    from pulled_documents d where d.kind = 'session' group by d.source, json_extract(d.body, '$.agent_id')`.execute(db)
  await sql`insert into pulled_sessions (source, agent_id, position, conversation_id, created_at, updated_at, message_count, last_message_preview)
    select source, agent_id, row_number() over (partition by source, agent_id order by created_at desc, conversation_id desc) - 1,
      conversation_id, created_at, updated_at, message_count, last_message_preview
    from (select d.source, json_extract(d.body, '$.agent_id') as agent_id, json_extract(d.body, '$.conversation_id') as conversation_id,
      json_extract(d.body, '$.created_at') as created_at, json_extract(d.body, '$.updated_at') as updated_at,
      json_extract(d.body, '$.message_count') as message_count, json_extract(d.body, '$.last_message_preview') as last_message_preview
      from pulled_documents d where d.kind = 'session')`.execute(db)
  await db.deleteFrom('pulled_documents').where('kind', '=', 'session').execute()
}

async function down(db: Kysely<any>): Promise<void> {
  await sql`insert into pulled_documents (source, kind, key, body, fetched_at, pull_id)
    select s.source, 'session', s.agent_id || '/' || s.conversation_id,
      json_object('agent_id', s.agent_id, 'conversation_id', s.conversation_id, 'created_at', s.created_at, 'updated_at', s.updated_at,
        'message_count', s.message_count, 'last_message_preview', s.last_message_preview),
      a.fetched_at, a.pull_id
    from pulled_sessions s join pulled_agents a on a.source = s.source and a.id = s.agent_id`.execute(db)
  await db.schema.dropTable('pulled_sessions').execute()
  await db.schema.dropTable('pulled_agents').execute()
}

export const pulledSessions: Migration = { up, down }
