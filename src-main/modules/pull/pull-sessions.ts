import { type SessionListItem, sessionListSchema } from '../../../src-shared/schemas/session'
import { refusalReason } from '../../kit/refusal'
import type { PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

const SESSIONS_PAGE = 100

const sameItem = (a: SessionListItem, b: SessionListItem | undefined) =>
  b !== undefined &&
  a.conversation_id === b.conversation_id &&
  a.created_at === b.created_at &&
  a.updated_at === b.updated_at &&
  a.message_count === b.message_count &&
  a.last_message_preview === b.last_message_preview

/**
 * A sync's quick check of one agent's listing: its first page against what is stored. The listing
 * is newest first, so new sessions and the active ones' new messages show on that page. Returns
 * the listing to store (the page, then the stored items after the page's last one), `'same'`
 * when nothing changed, or null when the page cannot account for the change (more new sessions
 * than a page, or a total that does not add up): then the listing is walked whole.
 */
function quickListing(page: { sessions: SessionListItem[]; total: number }, stored: SessionListItem[]): SessionListItem[] | 'same' | null {
  if (page.total === stored.length && page.sessions.every((item, i) => sameItem(item, stored[i]))) return 'same'
  // The whole listing on one page: it is the listing.
  if (page.sessions.length >= page.total) return page.sessions
  const last = page.sessions.at(-1)!
  const at = stored.findIndex((s) => s.conversation_id === last.conversation_id)
  if (at === -1) return null
  const onPage = new Set(page.sessions.map((s) => s.conversation_id))
  const merged = [...page.sessions, ...stored.slice(at + 1).filter((s) => !onPage.has(s.conversation_id))]
  return merged.length === page.total ? merged : null
}

/**
 * Fetches one agent's sessions listing page by page and stores it whole, in the remote's order
 * (pulls.repo replaceAgentSessions); a missing agent is a problem, not a failure, and a listing
 * that breaks part way leaves what was stored before as it was.
 */
export async function pullSessions(run: PullRun, agentId: string, tenant: string | null): Promise<void> {
  const { counts } = run
  const items: SessionListItem[] = []
  // The listing may move while it is walked (a new session shifts every offset): keep each once.
  const seen = new Set<string>()
  let offset = 0
  let pages = 0
  const stored = run.options.quickSessions ? await repo.storedListing(run.db, run.source, agentId) : null
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
    if (pages === 0 && stored !== null) {
      const quick = quickListing(page.data, stored)
      if (quick === 'same') {
        counts.sessions.unchanged++
        return run.finishStep(`agent:${agentId}`, tenant)
      }
      if (quick !== null) return storeListing(run, agentId, tenant, quick)
    }
    for (const item of page.data.sessions) {
      if (seen.has(item.conversation_id)) continue
      seen.add(item.conversation_id)
      items.push(item)
    }
    offset += page.data.sessions.length
    pages++
    // The total bounds the walk, and so does an empty page, should the remote's total be wrong.
    if (page.data.sessions.length === 0 || offset >= page.data.total || pages > 10_000) break
  }
  await storeListing(run, agentId, tenant, items)
}

async function storeListing(run: PullRun, agentId: string, tenant: string | null, items: SessionListItem[]): Promise<void> {
  await repo.replaceAgentSessions(run.db, { source: run.source, agentId, tenantId: tenant, items, fetchedAt: new Date().toISOString(), pullId: run.row.id })
  run.counts.sessions.fetched += items.length
  run.counts.sessions.agents++
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
