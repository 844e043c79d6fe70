import type { Kysely } from 'kysely'
import { jsonOrText } from '../../lib/json-or-text'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { canSeeTenant } from '../../kit/access'
import type { Principal } from '../../kit/access'
import * as repo from './conversations.repo'

export function createConversationsService(db: Kysely<Database>) {
  return {
    /** A conversation (session) with its messages in order, its call(s) and transfers; tenant-scoped. */
    async get(principal: Principal, conversationId: string) {
      const conversation = await repo.findConversation(db, conversationId)
      if (!conversation || !canSeeTenant(principal, conversation.tenant_id)) throw new NotFoundError('Conversation')
      const [messages, calls, transfers] = await Promise.all([
        repo.listMessages(db, conversationId),
        repo.listCalls(db, conversationId),
        repo.listTransfers(db, conversationId),
      ])
      return {
        conversation: { ...conversation, resolved: conversation.resolved === null ? null : conversation.resolved === 1 },
        messages: messages.map((m) => ({
          ...m,
          tool_arguments: jsonOrText(m.tool_arguments) as Record<string, unknown> | null,
          tool_result: jsonOrText(m.tool_result),
        })),
        calls,
        transfers,
      }
    },
  }
}

export type ConversationsService = ReturnType<typeof createConversationsService>
