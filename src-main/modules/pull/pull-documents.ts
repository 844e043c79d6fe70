import { canonicalUuid } from '../../../src-shared/schemas/lax-uuid'
import type { PullRun } from './pull-run'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

/** Fetches one JSON object into the pulled documents; false (a problem noted) when the remote answers something else. */
async function pullDocument(run: PullRun, kind: 'squad_analytics' | 'sip_trunks', path: string, key: string, query: Record<string, string> = {}): Promise<boolean> {
  const body = await run.client.getJson(path, query)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    run.problem(kind === 'sip_trunks' ? 'SIP trunks' : `squad ${key}`, `${path} answered ${Array.isArray(body) ? 'an array' : JSON.stringify(body)?.slice(0, 60)} where a JSON object was expected; not stored`)
    return false
  }
  await repo.upsertDocument(run.db, { source: run.source, kind, key, body: JSON.stringify(body), fetched_at: new Date().toISOString(), pull_id: run.row.id })
  return true
}

/**
 * The analytics, over the pull's range, of every squad the call logs named and of those asked for
 * by name; a missing squad is a problem, not a failure. Those fetched by an interrupted pull are skipped.
 */
export async function pullSquadAnalytics(run: PullRun): Promise<void> {
  const { row, counts } = run
  for (const { id, state } of await run.known('squad:', (run.options.squads ?? []).map((s) => canonicalUuid(s) ?? s))) {
    if (run.finishedEarlier(state)) {
      counts.skipped++
      continue
    }
    try {
      if (await pullDocument(run, 'squad_analytics', `/squads/${encodeURIComponent(id)}/analytics`, id, { start_date: row.since, end_date: row.until })) {
        counts.squadAnalytics.fetched++
        await run.finishStep(`squad:${id}`, state.tenantId)
      }
    } catch (error) {
      if (!(error instanceof RemoteError && error.kind === 'not_found')) throw error
      counts.squadAnalytics.missing++
      run.problem(`squad ${id}`, error.message)
      await run.finishStep(`squad:${id}`, state.tenantId)
    }
  }
}

/** The SIP trunk list, stored under the pull's tenant (or `*`). */
export async function pullSipTrunks(run: PullRun): Promise<void> {
  if (await pullDocument(run, 'sip_trunks', '/agents/sip/list-trunks', run.tenantId ?? '*')) run.counts.sipTrunks.fetched++
}
