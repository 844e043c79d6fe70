import { canonicalUuid } from '../../../src-shared/schemas/lax-uuid'
import type { PullRun } from './pull-run'
import { MAX_ID_LENGTH } from '../../../src-shared/schemas/params'
import { nonEmptyText } from '../../lib/non-empty-text'
import { llmProviderIds } from '../providers/catalog'
import * as repo from './pulls.repo'
import { RemoteError } from './remote-client'

type Json = Record<string, unknown>

/** One JSON object from the remote; null (a problem noted) when it answers something else. */
async function fetchObject(run: PullRun, step: string, path: string, query: Record<string, string> = {}): Promise<Json | null> {
  const body = await run.client.getJson(path, query)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    run.problem(step, `${path} answered ${Array.isArray(body) ? 'an array' : JSON.stringify(body)?.slice(0, 60)} where a JSON object was expected; not stored`)
    return null
  }
  return body as Json
}

/**
 * A squad's analytics over the pull's range, and as the source answers them without dates (its
 * default period, which follows its clock: issue 36 pt 5), stored as one row (pulls.repo
 * upsertSquadAnalytics). A date-less answer that is not a JSON object is a problem noted; the
 * range's answer is stored all the same.
 */
async function pullSquad(run: PullRun, squadId: string, tenant: string | null): Promise<boolean> {
  const { row } = run
  const path = `/squads/${encodeURIComponent(squadId)}/analytics`
  const body = await fetchObject(run, `squad ${squadId}`, path, { start_date: row.since, end_date: row.until })
  if (body === null) return false
  const fetchedAt = new Date().toISOString()
  const byDefault = await fetchObject(run, `squad ${squadId} (no dates)`, path)
  const defaultFetchedAt = new Date().toISOString()
  await repo.upsertSquadAnalytics(run.db, {
    source: run.source,
    squad_id: squadId,
    squad_name: nonEmptyText(body.squad_name),
    tenant_id: nonEmptyText(body.tenant_id)?.toLowerCase() ?? tenant,
    period_start: row.since,
    period_end: row.until,
    body: JSON.stringify(body),
    fetched_at: fetchedAt,
    pull_id: row.id,
    default_body: byDefault === null ? null : JSON.stringify(byDefault),
    default_fetched_at: byDefault === null ? null : defaultFetchedAt,
  })
  // Its members are agents too, whether or not a call log named them: their sessions are fetched next.
  const members = Array.isArray(body.member_utilization) ? (body.member_utilization as unknown[]) : []
  const agentIds = members.map((m) => nonEmptyText((m as Json | null)?.agent_id)).filter((id): id is string => id !== null && id.length <= MAX_ID_LENGTH)
  const squadTenant = nonEmptyText(body.tenant_id)?.toLowerCase() ?? tenant
  await repo.addCursors(run.db, run.source, agentIds.map((id) => ({ key: `agent:${canonicalUuid(id) ?? id}`, value: JSON.stringify({ tenantId: squadTenant, completedAt: null }) })), new Date().toISOString())
  return true
}

/**
 * The analytics, over the pull's range, of every squad the call logs named and of those asked for
 * by name; a missing squad is a problem, not a failure. Those fetched by an interrupted pull are skipped.
 */
export async function pullSquadAnalytics(run: PullRun): Promise<void> {
  const { counts } = run
  for (const { id, state } of await run.known('squad:', (run.options.squads ?? []).map((s) => canonicalUuid(s) ?? s))) {
    if (run.finishedEarlier(state)) {
      counts.skipped++
      continue
    }
    try {
      if (await pullSquad(run, id, state.tenantId)) {
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

/**
 * The SIP trunk list. Callscope's shape (`{ "trunks": [ {…}, … ] }`) becomes one row per trunk in
 * the remote's order, replacing the source's earlier list; any other object (the spec does not show
 * the shape) is kept as a document under the pull's tenant (or `*`).
 */
export async function pullSipTrunks(run: PullRun): Promise<void> {
  const body = await fetchObject(run, 'SIP trunks', '/agents/sip/list-trunks')
  if (body === null) return
  const fetchedAt = new Date().toISOString()
  const trunks = body.trunks
  if (Array.isArray(trunks) && trunks.every((t) => typeof t === 'object' && t !== null && !Array.isArray(t))) {
    await repo.replaceSipTrunks(run.db, run.source, trunks as Json[], fetchedAt, run.row.id)
  } else {
    await repo.upsertDocument(run.db, { source: run.source, kind: 'sip_trunks', key: run.tenantId ?? '*', body: JSON.stringify(body), fetched_at: fetchedAt, pull_id: run.row.id })
  }
  run.counts.sipTrunks.fetched++
}

/**
 * Each catalog provider's details (GET /admin/providers/llm/{provider}), kept whole: the remote's
 * models, key status (masked, never the key) and agents. A provider the remote does not know (404,
 * 422) is counted missing; a token that may not read them (403) skips the step with a problem.
 */
export async function pullLlmProviders(run: PullRun): Promise<void> {
  for (const provider of llmProviderIds) {
    try {
      const body = await fetchObject(run, `LLM provider ${provider}`, `/admin/providers/llm/${encodeURIComponent(provider)}`)
      if (body === null) continue
      await repo.upsertLlmProvider(run.db, { source: run.source, provider, body: JSON.stringify(body), fetched_at: new Date().toISOString(), pull_id: run.row.id })
      run.counts.llmProviders.fetched++
    } catch (error) {
      if (!(error instanceof RemoteError)) throw error
      if (error.kind === 'not_found' || error.kind === 'rejected') {
        run.counts.llmProviders.missing++
      } else if (error.kind === 'auth') {
        run.problem('LLM providers', `${error.message}; provider details need an admin token, skipped`)
        return
      } else throw error
    }
  }
}
