import { randomUUID } from 'node:crypto'
import type BetterSqlite3 from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { parseInstant } from '../../../src-shared/schemas/params'
import { type pulledDocumentsQuerySchema, UUID_PATTERN } from '../../../src-shared/schemas/pull'
import { sessionListSchema } from '../../../src-shared/schemas/session'
import { tenantSchema } from '../../../src-shared/schemas/tenant'
import type { z } from '../../../src-shared/schemas/zod'
import type { Database, NewTenant, PulledKind, PullStatus } from '../../db/schema'
import { InvalidInputError } from '../../kit/errors'
import { checkCallLog } from '../call-logs/call-log-record'
import { callLogValues } from '../call-logs/call-log-values'
import { prepareCallLogInsert, withFtsBatched } from '../call-logs/call-logs.write.repo'
import { createRunLifecycle } from '../runs/run-lifecycle'
import { CALL_LOG_PAGE_LIMIT, walkCallLogWindows } from './call-log-windows'
import * as repo from './pulls.repo'
import { createRemoteClient, normalizeBaseUrl, RemoteError, type RemoteClient } from './remote-client'

/** Problems kept in a pull's report; the counts cover the rest. */
export const MAX_REPORTED_PULL_ERRORS = 100
/** Default reach back when no `since` is given. */
export const DEFAULT_PULL_DAYS = 7
/** A resumed call log walk starts this far before where the last one stopped: late lines land there. */
const RESUME_OVERLAP_MS = 5 * 60_000
const SESSIONS_PAGE = 100

export interface PullCounts {
  tenants: { fetched: number; invalid: number; missing: number }
  callLogs: { windows: number; fetched: number; inserted: number; duplicates: number; invalid: number; otherTenants: number }
  sessions: { agents: number; fetched: number; missing: number }
  squadAnalytics: { fetched: number; missing: number }
  sipTrunks: { fetched: number }
  /** Steps a resumed pull did not redo because the interrupted one had finished them. */
  skipped: number
}

export interface PullProblem {
  step: string
  reason: string
}

export interface PullReport {
  id: string
  source: string
  tenantId: string | null
  since: string
  until: string
  status: PullStatus
  startedAt: string
  updatedAt: string
  finishedAt: string | null
  requests: number
  retries: number
  counts: PullCounts
  errors: PullProblem[]
  /** Why the pull stopped before its end (status failed or cancelled). */
  failure: string | null
  durationMs: number | null
}

export interface PullOptions {
  baseUrl: string
  token: string
  /** Pull only this tenant's profile and records. */
  tenantId?: string
  /** Call logs from this date or date-time on (default: 7 days ago); up to the pull's start. */
  since?: string
  /** Squads whose analytics to fetch, besides those named by the call logs' transfer lines. */
  squads?: string[]
  /** Requests per second at most (default 5). */
  rate?: number
  timeoutMs?: number
  retries?: number
  backoffMs?: number
  onProgress?: (report: PullReport) => void
}

const emptyCounts = (): PullCounts => ({
  tenants: { fetched: 0, invalid: 0, missing: 0 },
  callLogs: { windows: 0, fetched: 0, inserted: 0, duplicates: 0, invalid: 0, otherTenants: 0 },
  sessions: { agents: 0, fetched: 0, missing: 0 },
  squadAnalytics: { fetched: 0, missing: 0 },
  sipTrunks: { fetched: 0 },
  skipped: 0,
})

const toReport = (row: repo.PullRow): PullReport => ({
  id: row.id,
  source: row.source,
  tenantId: row.tenant_id,
  since: row.since,
  until: row.until,
  status: row.status,
  startedAt: row.started_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  requests: row.requests,
  retries: row.retries,
  counts: { ...emptyCounts(), ...(JSON.parse(row.counts) as Partial<PullCounts>) },
  errors: JSON.parse(row.errors) as PullProblem[],
  failure: row.failure,
  durationMs: row.duration_ms,
})

const iso = (ms: number) => new Date(ms).toISOString()

function tenantRow(value: unknown): { row: NewTenant } | { reason: string } {
  const parsed = tenantSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    return { reason: `${issue.path.join('.') || 'body'}: ${issue.message}` }
  }
  const t = parsed.data
  const flag = (b: boolean) => (b ? 1 : 0)
  return {
    row: {
      ...t,
      id: t.id.toLowerCase(),
      sip_enabled: flag(t.sip_enabled),
      recording_enabled: flag(t.recording_enabled),
      analytics_enabled: flag(t.analytics_enabled),
      hipaa_enabled: flag(t.hipaa_enabled),
      pci_enabled: flag(t.pci_enabled),
      data_encryption_enabled: flag(t.data_encryption_enabled),
      meta_data: t.meta_data == null ? null : JSON.stringify(t.meta_data),
      sip_domain: t.sip_domain ?? null,
      sip_username: t.sip_username ?? null,
      webhook_url: t.webhook_url ?? null,
    },
  }
}

/** What a step's cursor holds: whose it is, and when its last fetch finished. */
interface StepState {
  tenantId: string | null
  completedAt: string | null
}
const readState = (value: string): StepState => ({ tenantId: null, completedAt: null, ...(JSON.parse(value) as Partial<StepState>) })

export function createPullsService(db: Kysely<Database>, sqlite: BetterSqlite3.Database) {
  const running = new Map<string, { controller: AbortController; done: Promise<PullReport> }>()
  const runs = createRunLifecycle(db, 'pulls', 'Pull', toReport)

  /** Checks options and records the pull; the returned promise settles with its final report. */
  async function begin(options: PullOptions): Promise<{ id: string; done: Promise<PullReport> }> {
    let source: string
    try {
      source = normalizeBaseUrl(options.baseUrl)
    } catch (error) {
      throw new InvalidInputError((error as Error).message)
    }
    if (!options.token.trim()) throw new InvalidInputError('a token is needed to pull')
    const tenantId = options.tenantId?.toLowerCase() ?? null
    if (tenantId !== null && !UUID_PATTERN.test(tenantId)) throw new InvalidInputError(`the tenant id must be a UUID: ${JSON.stringify(options.tenantId)}`)
    for (const squad of options.squads ?? []) if (!UUID_PATTERN.test(squad)) throw new InvalidInputError(`a squad id must be a UUID: ${JSON.stringify(squad)}`)
    const startedMs = Date.now()
    const since = options.since === undefined ? iso(startedMs - DEFAULT_PULL_DAYS * 86_400_000) : parseInstant(options.since)
    if (since === null) throw new InvalidInputError(`--since must be an ISO 8601 date or date-time: ${JSON.stringify(options.since)}`)
    if (Date.parse(since) > startedMs) throw new InvalidInputError('--since is in the future')
    if (options.rate !== undefined && !(options.rate > 0 && options.rate <= 1000)) throw new InvalidInputError('the rate must be between 0 and 1000 requests per second')

    const now = iso(startedMs)
    const row: repo.PullRow = {
      id: randomUUID(),
      source,
      tenant_id: tenantId,
      since,
      until: now,
      status: 'running',
      pid: process.pid,
      started_at: now,
      updated_at: now,
      finished_at: null,
      requests: 0,
      retries: 0,
      counts: '{}',
      errors: '[]',
      failure: null,
      duration_ms: null,
    }
    await repo.insertPull(db, row)
    const controller = new AbortController()
    const done = run(row, options, controller.signal).finally(() => running.delete(row.id))
    running.set(row.id, { controller, done })
    return { id: row.id, done }
  }

  async function run(row: repo.PullRow, options: PullOptions, signal: AbortSignal): Promise<PullReport> {
    const started = performance.now()
    const counts = emptyCounts()
    const errors: PullProblem[] = []
    const { source } = row
    const tenantId = row.tenant_id
    const problem = (step: string, reason: string) => {
      if (errors.length < MAX_REPORTED_PULL_ERRORS) errors.push({ step, reason })
    }
    const progress = () => ({
      requests: row.requests,
      retries: row.retries,
      counts: JSON.stringify(counts),
      errors: JSON.stringify(errors),
      updated_at: new Date().toISOString(),
    })
    const save = async () => {
      Object.assign(row, progress())
      await repo.updatePull(db, row.id, progress())
      options.onProgress?.(toReport(row))
    }
    const client: RemoteClient = createRemoteClient({
      baseUrl: source,
      token: options.token,
      rate: options.rate,
      timeoutMs: options.timeoutMs,
      retries: options.retries,
      backoffMs: options.backoffMs,
      signal,
      onAttempt: (a) => {
        row.requests++
        if (a.waitMs !== null) row.retries++
      },
    })

    const mark = await repo.resumeMark(db, source, row.id)
    /** A step the interrupted pull before this one finished: not fetched again. */
    const finishedEarlier = (state: StepState) => mark !== null && state.completedAt !== null && state.completedAt >= mark
    const finishStep = async (key: string, tenant: string | null): Promise<void> => {
      await repo.setCursor(db, source, key, JSON.stringify({ tenantId: tenant, completedAt: new Date().toISOString() }), new Date().toISOString())
    }

    /** Fetches one tenant profile into the tenants table; a missing one ends the pull only if asked for by name. */
    async function pullTenant(id: string, required: boolean): Promise<void> {
      let body: unknown
      try {
        body = await client.getJson(`/tenants/${encodeURIComponent(id)}`)
      } catch (error) {
        if (error instanceof RemoteError && error.kind === 'not_found' && !required) {
          counts.tenants.missing++
          problem(`tenant ${id}`, error.message)
          return finishStep(`tenant:${id}`, id)
        }
        if (error instanceof RemoteError && error.kind === 'not_found') throw new RemoteError(`tenant ${id} is not on the remote (${error.message})`, 'not_found', 404)
        throw error
      }
      const checked = tenantRow(body)
      if ('reason' in checked) {
        counts.tenants.invalid++
        problem(`tenant ${id}`, `not a valid tenant, not stored: ${checked.reason}`)
        return
      }
      try {
        await repo.upsertTenant(db, { ...checked.row, pull_id: row.id })
        counts.tenants.fetched++
        await finishStep(`tenant:${id}`, id)
      } catch (error) {
        counts.tenants.invalid++
        problem(`tenant ${id}`, `the store refused it: ${(error as Error).message}`)
      }
    }

    const insertLog = prepareCallLogInsert(db, sqlite, { pull_id: row.id })
    const storeWindow = sqlite.transaction((records: unknown[], discovered: Map<string, string | null>) =>
      withFtsBatched(sqlite, () => {
        for (const [index, value] of records.entries()) {
          const checked = checkCallLog(value)
          if ('reason' in checked) {
            counts.callLogs.invalid++
            const id = typeof value === 'object' && value !== null && 'id' in value ? String((value as { id: unknown }).id) : `#${index + 1}`
            problem('call logs', `record ${id.slice(0, 60)} not stored: ${checked.reason}`)
            continue
          }
          const log = checked.row
          if (tenantId !== null && log.tenant_id !== tenantId) {
            counts.callLogs.otherTenants++
            continue
          }
          if (insertLog(callLogValues(log))) counts.callLogs.inserted++
          else counts.callLogs.duplicates++
          discovered.set(`tenant:${log.tenant_id}`, log.tenant_id)
          if (log.agent_id) discovered.set(`agent:${log.agent_id}`, log.tenant_id)
          // From the record as received: the row's details are already serialized for the store.
          const squad = (value as { details?: { squad_id?: unknown } }).details?.squad_id
          if (typeof squad === 'string' && UUID_PATTERN.test(squad)) discovered.set(`squad:${squad.toLowerCase()}`, log.tenant_id)
        }
      }),
    )

    async function pullCallLogs(): Promise<void> {
      const key = `call_logs:${tenantId ?? '*'}`
      const saved = await repo.getCursor(db, source, key)
      const cover = saved ? (JSON.parse(saved) as { from: string; to: string }) : null
      const sinceMs = Date.parse(row.since)
      // Coverage is contiguous from cover.from: when it already holds `since`, start near its end.
      const continues = cover !== null && Date.parse(cover.from) <= sinceMs && Date.parse(cover.to) >= sinceMs
      const from = continues ? Math.max(sinceMs, Date.parse(cover.to) - RESUME_OVERLAP_MS) : sinceMs
      const coverFrom = continues ? cover.from : row.since
      await walkCallLogWindows({
        from,
        to: Date.parse(row.until),
        limit: CALL_LOG_PAGE_LIMIT,
        fetchWindow: async (start, end) => {
          const body = await client.getJson('/logs/calls', { start_date: iso(start), end_date: iso(end), limit: CALL_LOG_PAGE_LIMIT })
          if (!Array.isArray(body)) throw new RemoteError(`GET /logs/calls answered ${typeof body === 'object' ? (body === null ? 'null' : 'an object') : typeof body} where the interface returns an array of call logs`, 'garbage')
          return body
        },
        onWindow: async (window) => {
          counts.callLogs.windows++
          counts.callLogs.fetched += window.records.length
          if (window.saturated) problem('call logs', `more than ${CALL_LOG_PAGE_LIMIT} records at ${iso(window.start)}: only ${CALL_LOG_PAGE_LIMIT} could be fetched`)
          const discovered = new Map<string, string | null>()
          storeWindow(window.records, discovered)
          const at = new Date().toISOString()
          await repo.addCursors(db, source, [...discovered].map(([k, tenant]) => ({ key: k, value: JSON.stringify({ tenantId: tenant, completedAt: null }) })), at)
          await repo.setCursor(db, source, key, JSON.stringify({ from: coverFrom, to: iso(window.end) }), at)
          await save()
        },
      })
    }

    /** Steps of one kind the call logs (or earlier pulls) made known, limited to the pull's tenant. */
    async function known(prefix: string, extra: string[] = []): Promise<Array<{ id: string; state: StepState }>> {
      const rows = await repo.cursorsWithPrefix(db, source, prefix)
      const found = new Map(rows.map((r) => [r.key.slice(prefix.length), readState(r.value)]))
      for (const id of extra) if (!found.has(id)) found.set(id, { tenantId, completedAt: null })
      return [...found]
        .filter(([, state]) => tenantId === null || state.tenantId === null || state.tenantId === tenantId)
        .map(([id, state]) => ({ id, state }))
    }

    async function pullSessions(agentId: string, tenant: string | null): Promise<void> {
      let offset = 0
      let pages = 0
      for (;;) {
        let body: unknown
        try {
          body = await client.getJson(`/agents/${encodeURIComponent(agentId)}/sessions`, { limit: SESSIONS_PAGE, offset })
        } catch (error) {
          if (error instanceof RemoteError && error.kind === 'not_found') {
            counts.sessions.missing++
            problem(`sessions of agent ${agentId}`, error.message)
            return finishStep(`agent:${agentId}`, tenant)
          }
          throw error
        }
        const page = sessionListSchema.safeParse(body)
        if (!page.success) {
          const issue = page.error.issues[0]!
          problem(`sessions of agent ${agentId}`, `not a session list, not stored (at offset ${offset}): ${issue.path.join('.') || 'body'}: ${issue.message}`)
          return
        }
        const fetchedAt = new Date().toISOString()
        for (const item of page.data.sessions) {
          await repo.upsertDocument(db, { source, kind: 'session', key: `${agentId}/${item.conversation_id}`, body: JSON.stringify({ agent_id: agentId, ...item }), fetched_at: fetchedAt, pull_id: row.id })
        }
        counts.sessions.fetched += page.data.sessions.length
        offset += page.data.sessions.length
        pages++
        // The total bounds the walk, and so does an empty page, should the remote's total be wrong.
        if (page.data.sessions.length === 0 || offset >= page.data.total || pages > 10_000) break
      }
      counts.sessions.agents++
      await finishStep(`agent:${agentId}`, tenant)
    }

    async function pullDocument(kind: 'squad_analytics' | 'sip_trunks', path: string, key: string, query: Record<string, string> = {}): Promise<boolean> {
      const body = await client.getJson(path, query)
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        problem(kind === 'sip_trunks' ? 'SIP trunks' : `squad ${key}`, `${path} answered ${Array.isArray(body) ? 'an array' : JSON.stringify(body)?.slice(0, 60)} where a JSON object was expected; not stored`)
        return false
      }
      await repo.upsertDocument(db, { source, kind, key, body: JSON.stringify(body), fetched_at: new Date().toISOString(), pull_id: row.id })
      return true
    }

    try {
      if (tenantId !== null) await pullTenant(tenantId, true)
      await save()
      await pullCallLogs()

      for (const { id, state } of await known('tenant:')) {
        if (id === tenantId) continue
        if (finishedEarlier(state)) counts.skipped++
        else await pullTenant(id, false)
      }
      await save()

      for (const { id, state } of await known('agent:')) {
        if (finishedEarlier(state)) counts.skipped++
        else await pullSessions(id, state.tenantId)
        await save()
      }

      for (const { id, state } of await known('squad:', (options.squads ?? []).map((s) => s.toLowerCase()))) {
        if (finishedEarlier(state)) {
          counts.skipped++
          continue
        }
        try {
          if (await pullDocument('squad_analytics', `/squads/${encodeURIComponent(id)}/analytics`, id, { start_date: row.since, end_date: row.until })) {
            counts.squadAnalytics.fetched++
            await finishStep(`squad:${id}`, state.tenantId)
          }
        } catch (error) {
          if (!(error instanceof RemoteError && error.kind === 'not_found')) throw error
          counts.squadAnalytics.missing++
          problem(`squad ${id}`, error.message)
          await finishStep(`squad:${id}`, state.tenantId)
        }
      }
      await save()

      if (await pullDocument('sip_trunks', '/agents/sip/list-trunks', tenantId ?? '*')) counts.sipTrunks.fetched++
      row.status = 'completed'
    } catch (error) {
      const cancelled = error instanceof RemoteError && error.kind === 'cancelled'
      row.status = cancelled ? 'cancelled' : 'failed'
      row.failure = error instanceof RemoteError ? error.message : `could not store what was fetched: ${(error as Error).message}`
    }
    const end = { ...progress(), status: row.status, failure: row.failure, finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started) }
    Object.assign(row, end)
    await repo.updatePull(db, row.id, end)
    const report = toReport(row)
    options.onProgress?.(report)
    return report
  }

  return {
    /**
     * Pulls from a backend that speaks the service interface: the tenant profile(s), call logs in
     * date windows, each agent's sessions page by page, squad analytics and the SIP trunks, stored
     * with their source and time. Resumes after a pull that did not finish; retries with backoff;
     * keeps to a rate limit. Resolves with the report, whatever the outcome.
     */
    async pull(options: PullOptions): Promise<PullReport> {
      return (await begin(options)).done
    },

    /** Checks the options and starts the pull; `done` settles with the final report. */
    begin,

    /** Starts a pull in the background (the console's way); its progress is in list()/get(). */
    async start(options: Omit<PullOptions, 'onProgress'>): Promise<{ id: string }> {
      const { id, done } = await begin(options)
      done.catch(() => {})
      return { id }
    },

    /** Stops a pull this process runs; what it stored stays, and the next pull resumes. */
    async cancel(id: string): Promise<PullReport> {
      const pull = running.get(id)
      if (!pull) return runs.find(id)
      pull.controller.abort()
      return pull.done
    },

    /** Cancels every pull of this process and waits for each to record how far it got (before the store closes). */
    async stopAll(): Promise<void> {
      const pulls = [...running.values()]
      for (const p of pulls) p.controller.abort()
      await Promise.allSettled(pulls.map((p) => p.done))
    },

    list: (limit = 50): Promise<PullReport[]> => runs.list(limit),

    get: (id: string): Promise<PullReport> => runs.get(id),

    /** Stored documents of one kind from one source, whole (tests, scripts). */
    documents: (source: string, kind: PulledKind) => repo.listDocuments(db, source, kind),

    /** A page of them for the console's browser, bodies parsed, with how many there are in all. */
    async documentsPage(query: PulledDocumentsQuery): Promise<PulledDocumentsPage> {
      const [counts, rows] = await Promise.all([
        repo.countDocuments(db, query.source),
        repo.listDocuments(db, query.source, query.kind, { offset: query.offset, limit: query.limit }),
      ])
      return {
        counts,
        total: counts[query.kind],
        items: rows.map((r) => ({ key: r.key, fetchedAt: r.fetched_at, pullId: r.pull_id, body: JSON.parse(r.body) as unknown })),
      }
    },
  }
}

export type PullsService = ReturnType<typeof createPullsService>

export type PulledDocumentsQuery = z.output<typeof pulledDocumentsQuerySchema>

export interface PulledDocumentsPage {
  /** Documents per kind for the source, for the browser's tabs. */
  counts: Record<PulledKind, number>
  /** Documents of the asked kind. */
  total: number
  items: Array<{ key: string; fetchedAt: string; pullId: string; body: unknown }>
}
