import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

/** A conversation with the names of its agent, tenant and squad. */
export function findConversation(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('conversations as c')
    .innerJoin('agents as a', 'a.id', 'c.agent_id')
    .innerJoin('tenants as t', 't.id', 'c.tenant_id')
    .leftJoin('squads as s', 's.id', 'c.squad_id')
    .selectAll('c')
    .select(['a.name as agent_name', 't.name as tenant_name', 's.name as squad_name'])
    .where('c.id', '=', id)
    .executeTakeFirst()
}

/** Messages in conversation order (the unique (conversation_id, position) index). */
export function listMessages(db: Kysely<Database>, conversationId: string) {
  return db.selectFrom('messages').selectAll().where('conversation_id', '=', conversationId).orderBy('position').execute()
}

/** The calls that carried the conversation (usually one), first first. */
export function listCalls(db: Kysely<Database>, conversationId: string) {
  return db.selectFrom('calls').selectAll().where('conversation_id', '=', conversationId).orderBy('started_at').orderBy('id').execute()
}

/** Transfers within the conversation, in order, with the agents' names. */
export function listTransfers(db: Kysely<Database>, conversationId: string) {
  return db
    .selectFrom('transfers as x')
    .innerJoin('agents as f', 'f.id', 'x.from_agent_id')
    .innerJoin('agents as t', 't.id', 'x.to_agent_id')
    .selectAll('x')
    .select(['f.name as from_agent_name', 't.name as to_agent_name'])
    .where('x.conversation_id', '=', conversationId)
    .orderBy('x.requested_at')
    .orderBy('x.id')
    .execute()
}
