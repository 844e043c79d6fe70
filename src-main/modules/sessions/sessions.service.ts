import type { Kysely } from 'kysely'
import type { SessionList, SessionListQuery } from '../../../src-shared/schemas/session'
import type { JsonReads } from '../../db/json-reads'
import type { Database } from '../../db/schema'
import { NotFoundError } from '../../kit/errors'
import { canSeeTenant, type Principal, sourceScope } from '../../kit/access'
import * as repo from './sessions.repo'

const decoder = new TextDecoder()

export function createSessionsService(db: Kysely<Database>, json: JsonReads) {
  /** The page as the API's JSON bytes, ready to send (the REST listing). */
  async function listForAgentJson(principal: Principal, agentId: string, query: SessionListQuery): Promise<Uint8Array<ArrayBuffer>> {
    // A local agent first; else one a pull brought in (issue 15), served the same way. A caller
    // limited to one source reads that source's agent only (local: '').
    const source = sourceScope(principal)
    const local = source === undefined || source === '' ? await repo.agentSessionsPage(db, json, agentId, query.limit, query.offset) : null
    const page = local ?? (source === '' ? null : await repo.pulledAgentSessionsPage(db, json, agentId, query.limit, query.offset, source))
    if (!page || !canSeeTenant(principal, page.tenantId)) throw new NotFoundError('Agent')
    return page.bytes
  }
  return {
    listForAgentJson,
    /** The agent's chat sessions (conversations), one page at a time (the console's tRPC query). */
    async listForAgent(principal: Principal, agentId: string, query: SessionListQuery): Promise<SessionList> {
      return JSON.parse(decoder.decode(await listForAgentJson(principal, agentId, query))) as SessionList
    },
  }
}

export type SessionsService = ReturnType<typeof createSessionsService>
