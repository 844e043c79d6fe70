import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'

export const PREVIEW_LENGTH = 120

/** One page of an agent's sessions, newest first; `id` breaks ties so pages never overlap. */
export function listAgentSessions(db: Kysely<Database>, agentId: string, limit: number, offset: number) {
  return db
    .selectFrom('conversations as c')
    .select((eb) => [
      'c.id as conversation_id',
      'c.created_at',
      'c.updated_at',
      eb
        .selectFrom('messages as m')
        .select((m) => m.fn.countAll<number>().as('n'))
        .whereRef('m.conversation_id', '=', 'c.id')
        .as('message_count'),
      eb
        .selectFrom('messages as m')
        .select('m.content')
        .whereRef('m.conversation_id', '=', 'c.id')
        .where('m.content', '<>', '')
        .orderBy('m.position', 'desc')
        .limit(1)
        .as('last_message'),
    ])
    .where('c.agent_id', '=', agentId)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute()
}

export async function countAgentSessions(db: Kysely<Database>, agentId: string): Promise<number> {
  const row = await db
    .selectFrom('conversations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agent_id', '=', agentId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
