import { sessionListSchema } from '../../../src-shared/schemas/session'
import { refusalReason } from '../../kit/refusal'
import type { PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

const SESSIONS_PAGE = 100

/** Fetches one agent's sessions page by page into the pulled documents; a missing agent is a problem, not a failure. */
export async function pullSessions(run: PullRun, agentId: string, tenant: string | null): Promise<void> {
  const { counts } = run
  let offset = 0
  let pages = 0
  for (;;) {
    let body: unknown
    try {
      body = await run.client.getJson(`/agents/${encodeURIComponent(agentId)}/sessions`, { limit: SESSIONS_PAGE, offset })
    } catch (error) {
      if (error instanceof RemoteError && error.kind === 'not_found') {
        counts.sessions.missing++
        run.problem(`sessions of agent ${agentId}`, error.message)
        return run.finishStep(`agent:${agentId}`, tenant)
      }
      throw error
    }
    const page = sessionListSchema.safeParse(body, { reportInput: true })
    if (!page.success) {
      const why = typeof body === 'object' && body !== null ? refusalReason(page.error, body as Record<string, unknown>) : `got ${JSON.stringify(body)?.slice(0, 60)}`
      run.problem(`sessions of agent ${agentId}`, `not a session list, not stored (at offset ${offset}): ${why}`)
      return
    }
    const fetchedAt = new Date().toISOString()
    for (const item of page.data.sessions) {
      await repo.upsertDocument(run.db, { source: run.source, kind: 'session', key: `${agentId}/${item.conversation_id}`, body: JSON.stringify({ agent_id: agentId, ...item }), fetched_at: fetchedAt, pull_id: run.row.id })
    }
    counts.sessions.fetched += page.data.sessions.length
    offset += page.data.sessions.length
    pages++
    // The total bounds the walk, and so does an empty page, should the remote's total be wrong.
    if (page.data.sessions.length === 0 || offset >= page.data.total || pages > 10_000) break
  }
  counts.sessions.agents++
  await run.finishStep(`agent:${agentId}`, tenant)
}

/** The sessions of every agent the call logs named, progress saved after each; those fetched by an interrupted pull are skipped. */
export async function pullKnownSessions(run: PullRun): Promise<void> {
  for (const { id, state } of await run.known('agent:')) {
    if (run.finishedEarlier(state)) run.counts.skipped++
    else await pullSessions(run, id, state.tenantId)
    await run.save()
  }
}
