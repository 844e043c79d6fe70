import { restated, storeFaultKind } from '../../../src-shared/store-faults'
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { MAX_ID_LENGTH, parseInstant } from '../../../src-shared/schemas/params'
import { type pulledDocumentsQuerySchema, UUID_PATTERN } from '../../../src-shared/schemas/pull'
import type { z } from '../../../src-shared/schemas/zod'
import type { Database, PulledKind } from '../../db/schema'
import type { StoreWriter } from '../../db/store-writer'
import { InvalidInputError } from '../../kit/errors'
import { createRunLifecycle, type RunLifecycle } from '../runs/run-lifecycle'
import { pullCallLogs } from './pull-call-logs'
import { pullLlmProviders, pullSipTrunks, pullSquadAnalytics } from './pull-documents'
import { type PullReport, toReport } from './pull-report'
import { iso, openPullRun, type PullOptions, type PullRun } from './pull-run'
import { pullKnownSessions } from './pull-sessions'
import { pullKnownTenants, pullTenant } from './pull-tenants'
import * as repo from './pulls.repo'
import { normalizeBaseUrl, RemoteError } from './remote-client'
import { FetchStoppedError } from './windows-in-worker'

export { MAX_REPORTED_PULL_ERRORS, type PullCounts, type PullProblem, type PullReport } from './pull-report'
export type { PullOptions } from './pull-run'

/** Default reach back when no `since` is given. */
export const DEFAULT_PULL_DAYS = 7

/** What a pull the store failed keeps (pull-call-logs.ts): every window stored before, with its cursor. */
const PULL_KEEPS = 'What it stored before is kept with its place; the next pull resumes from there and fetches the rest.'

/** `since` as the store's instant: 7 days before `nowMs` when not given; InvalidInputError when unreadable or in the future. */
export function resolveSince(since: string | undefined, nowMs = Date.now()): string {
  const resolved = since === undefined ? iso(nowMs - DEFAULT_PULL_DAYS * 86_400_000) : parseInstant(since)
  if (resolved === null) throw new InvalidInputError(`--since must be an ISO 8601 date or date-time: ${JSON.stringify(since)}`)
  if (Date.parse(resolved) > nowMs) throw new InvalidInputError('--since is in the future')
  return resolved
}

/** The options checked, as the pull's record: source normalized, tenant lower-cased, `since` resolved. */
function newPullRow(options: PullOptions): repo.PullRow {
  let source: string
  try {
    source = normalizeBaseUrl(options.baseUrl)
  } catch (error) {
    throw new InvalidInputError((error as Error).message)
  }
  if (!options.token.trim()) throw new InvalidInputError('a token is needed to pull')
  const tenantId = options.tenantId?.toLowerCase() ?? null
  if (tenantId !== null && !UUID_PATTERN.test(tenantId)) throw new InvalidInputError(`the tenant id must be a UUID: ${JSON.stringify(options.tenantId)}`)
  for (const squad of options.squads ?? []) {
    if (!squad.trim() || squad.length > MAX_ID_LENGTH) throw new InvalidInputError(`a squad id must be 1 to ${MAX_ID_LENGTH} characters: ${JSON.stringify(squad)}`)
  }
  const startedMs = Date.now()
  const since = resolveSince(options.since, startedMs)
  if (options.rate !== undefined && !(options.rate > 0 && options.rate <= 1000)) throw new InvalidInputError('the rate must be between 0 and 1000 requests per second')

  const now = iso(startedMs)
  return {
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
    sync: options.sync ? 1 : 0,
    failure_kind: null,
  }
}

/**
 * The pull's steps in order: the named tenant, the call logs, then what they made known (tenant
 * profiles, squad analytics, the sessions of the agents they and the squads' members name), the SIP trunks and the LLM providers' details. Progress is saved between steps.
 */
async function pullSteps(run: PullRun): Promise<void> {
  if (run.tenantId !== null) await pullTenant(run, run.tenantId, true)
  await run.save()
  await pullCallLogs(run)
  await pullKnownTenants(run)
  await run.save()
  // Analytics before sessions: a squad's members are agents whose sessions are fetched, call logs or not.
  await pullSquadAnalytics(run)
  await run.save()
  await pullKnownSessions(run)
  await run.save()
  await pullSipTrunks(run)
  await pullLlmProviders(run)
}

/**
 * The report of a pull the store could not even record (the insert of its row refused by a full
 * disk): failed, with the disk's message, kept nowhere. A sync counts it as a failed cycle and
 * retries (pull-syncs.service.ts).
 */
export function unrecordedPull(options: PullOptions, error: unknown): PullReport {
  const row = newPullRow(options)
  const failure = (restated(error, 'The pull', PULL_KEEPS) as Error).message
  return toReport({ ...row, status: 'failed', failure, failure_kind: 'store', finished_at: row.started_at, duration_ms: 0 })
}

/** Runs the steps; whatever stops them is recorded as the pull's end, and the report returned. */
async function runPull(
  db: Kysely<Database>,
  writer: StoreWriter,
  row: repo.PullRow,
  options: PullOptions,
  signal: AbortSignal,
  runs: Pick<RunLifecycle<PullReport>, 'endedUnrecorded'>,
): Promise<PullReport> {
  const started = performance.now()
  const pull = await openPullRun(db, writer, row, options, signal)
  try {
    await pullSteps(pull)
    row.status = 'completed'
  } catch (error) {
    const cancelled = error instanceof RemoteError && error.kind === 'cancelled'
    row.status = cancelled ? 'cancelled' : 'failed'
    // The fetch worker's own failure says so; any other error that is not the remote's is the
    // store's: a full disk or damage says where the store is and what to do (src-shared/store-faults.ts).
    const fault = restated(error, 'The pull', PULL_KEEPS)
    row.failure =
      error instanceof RemoteError || error instanceof FetchStoppedError
        ? error.message
        : storeFaultKind(fault)
          ? (fault as Error).message
          : `could not store what was fetched: ${(error as Error).message}`
    // 'damaged' apart from the store's other failures: a sync stops on it (pull-syncs.service.ts).
    row.failure_kind = error instanceof RemoteError ? error.kind : error instanceof FetchStoppedError ? 'fetch' : storeFaultKind(fault) === 'damaged' ? 'damaged' : 'store'
  }
  const end = { ...pull.progress(), status: row.status, failure: row.failure, failure_kind: row.failure_kind, finished_at: new Date().toISOString(), duration_ms: Math.round(performance.now() - started) }
  Object.assign(row, end)
  try {
    await repo.updatePull(db, row.id, end)
  } catch (error) {
    // A disk that refused the pull's rows may refuse its record's end too: the report stays true
    // (the record keeps the progress written with the last window stored). A pull that went well
    // and cannot say so fails here.
    if (row.status === 'completed' || storeFaultKind(error) !== 'full') throw restated(error, 'Recording the end of the pull')
    runs.endedUnrecorded(row.id, end)
  }
  const report = toReport(row)
  options.onProgress?.(report)
  return report
}

export function createPullsService(db: Kysely<Database>, writer: StoreWriter) {
  const running = new Map<string, { controller: AbortController; done: Promise<PullReport> }>()
  const runs = createRunLifecycle(db, 'pulls', 'Pull', toReport)

  /** Checks options and records the pull; the returned promise settles with its final report. */
  async function begin(options: PullOptions): Promise<{ id: string; done: Promise<PullReport> }> {
    const row = newPullRow(options)
    await repo.insertPull(db, row)
    const controller = new AbortController()
    const done = runPull(db, writer, row, options, controller.signal, runs).finally(() => running.delete(row.id))
    running.set(row.id, { controller, done })
    return { id: row.id, done }
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

    /** The newest pulls first; a sync's cycles only when asked (the console shows a sync by its state). */
    async list(limit = 50, options: { syncCycles?: boolean } = {}): Promise<PullReport[]> {
      await runs.reconcile()
      return (await repo.listPulls(db, limit, options.syncCycles ?? false)).map(toReport)
    },

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
