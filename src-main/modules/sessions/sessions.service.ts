import type { Kysely } from 'kysely'
import type { SessionList, SessionListQuery } from '../../../src-shared/schemas/session'
import type { Database } from '../../db/schema'
import { findAgentTenant } from '../agents/agents.repo'
import { NotFoundError } from '../../kit/errors'
import { canSeeTenant } from '../../kit/access'
import type { Principal } from '../../kit/access'
import * as repo from './sessions.repo'

const preview = (text: string | null): string =>
  !text ? '' : text.length > repo.PREVIEW_LENGTH ? `${text.slice(0, repo.PREVIEW_LENGTH - 1)}…` : text

export function createSessionsService(db: Kysely<Database>) {
  return {
    /** The agent's chat sessions (conversations), one page at a time. */
    async listForAgent(principal: Principal, agentId: string, query: SessionListQuery): Promise<SessionList> {
      const agent = await findAgentTenant(db, agentId)
      if (!agent || !canSeeTenant(principal, agent.tenant_id)) throw new NotFoundError('Agent')
      const [rows, total] = await Promise.all([
        repo.listAgentSessions(db, agentId, query.limit, query.offset),
        repo.countAgentSessions(db, agentId),
      ])
      return {
        sessions: rows.map((r) => ({
          conversation_id: r.conversation_id,
          created_at: r.created_at,
          updated_at: r.updated_at,
          message_count: Number(r.message_count ?? 0),
          last_message_preview: preview(r.last_message),
        })),
        total,
        limit: query.limit,
        offset: query.offset,
      }
    },
  }
}

export type SessionsService = ReturnType<typeof createSessionsService>
