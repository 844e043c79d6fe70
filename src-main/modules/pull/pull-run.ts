import type { Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import type { StoreWriter } from '../../db/store-writer'
import { MAX_REPORTED_PULL_ERRORS, emptyCounts, toReport, type PullCounts, type PullProblem, type PullReport } from './pull-report'
import * as repo from './pulls.repo'
import { createRemoteClient, type RemoteAttempt, type RemoteClient, type RemoteClientOptions } from './remote-client'

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
  /** A cycle of a continuous sync (recorded as such). */
  sync?: boolean
  /**
   * Sessions listings: check each agent's first page against what is stored and walk the rest
   * only when it shows a change the first page cannot account for (a sync's cycles, but every
   * few). Else every listing is walked whole.
   */
  quickSessions?: boolean
  /**
   * `auto`: when the store holds no call log yet, load them in bulk (pull-call-logs.ts): the
   * table's secondary indexes and full-text triggers dropped and built once at the end, commits
   * every 100,000 rows. Other connections then see rows without indexes until the end, so only
   * the one-shot CLI asks for it; the default stores window by window with every index live.
   */
  bulk?: 'auto' | false
  /** A bulk load's fetch worker script (windows-in-worker.ts) when not the default; null fetches on this thread. For tests. */
  fetchWorker?: URL | null
}

export { iso } from './call-log-windows'

/** What a step's cursor holds: whose it is, and when its last fetch finished. */
export interface StepState {
  tenantId: string | null
  completedAt: string | null
}
const readState = (value: string): StepState => ({ tenantId: null, completedAt: null, ...(JSON.parse(value) as Partial<StepState>) })

/** One pull under way, as its steps see it: where it pulls from, what it counted, how to record that. */
export interface PullRun {
  db: Kysely<Database>
  /** The store's writing connection, for the call logs' write job. */
  writer: StoreWriter
  /** The pull's record, kept up to date with its requests, counts and errors. */
  row: repo.PullRow
  options: PullOptions
  /** The remote's normalized base URL. */
  source: string
  /** The tenant the pull is limited to, if any. */
  tenantId: string | null
  counts: PullCounts
  client: RemoteClient
  /** What `client` was made with but its signal and callback: for another client of the same pull (the fetch worker's). */
  clientOptions: Omit<RemoteClientOptions, 'signal' | 'onAttempt'>
  /** Told of another client's attempts: counted on the pull's record, a Retry-After held to by `client` too. */
  attempted(attempt: RemoteAttempt): void
  /** Aborted when the pull is cancelled. */
  signal: AbortSignal
  /** Notes a problem met at a step (the first MAX_REPORTED_PULL_ERRORS are kept). */
  problem(step: string, reason: string): void
  /** The pull's counts and problems, as its record stores them. */
  progress(): repo.PullProgressColumns
  /** Records the progress so far and tells the caller (onProgress). */
  save(): Promise<void>
  /** Tells the caller the progress (onProgress) that a write job has just recorded (a bulk load's window). */
  recorded(progress: repo.PullProgressColumns): void
  /** Records a step (`tenant:…`, `agent:…`, `squad:…`) as fetched now, for a resumed pull to skip. */
  finishStep(key: string, tenant: string | null): Promise<void>
  /** A step the interrupted pull before this one finished: not fetched again. */
  finishedEarlier(state: StepState): boolean
  /** Steps of one kind the call logs (or earlier pulls) made known, limited to the pull's tenant. */
  known(prefix: string, extra?: string[]): Promise<Array<{ id: string; state: StepState }>>
}

/** Sets up the run of a recorded pull: its remote client (counting requests on the row) and where it may resume. */
export async function openPullRun(
  db: Kysely<Database>,
  writer: StoreWriter,
  row: repo.PullRow,
  options: PullOptions,
  signal: AbortSignal,
): Promise<PullRun> {
  const counts = emptyCounts()
  const errors: PullProblem[] = []
  const { source } = row
  const tenantId = row.tenant_id
  const progress = () => ({
    requests: row.requests,
    retries: row.retries,
    counts: JSON.stringify(counts),
    errors: JSON.stringify(errors),
    updated_at: new Date().toISOString(),
  })
  const clientOptions = {
    baseUrl: source,
    token: options.token,
    rate: options.rate,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    backoffMs: options.backoffMs,
  }
  const count = (a: RemoteAttempt) => {
    row.requests++
    if (a.waitMs !== null) row.retries++
  }
  const client = createRemoteClient({ ...clientOptions, signal, onAttempt: count })
  const mark = await repo.resumeMark(db, source, row.id)

  return {
    db, writer, row, options, source, tenantId, counts, client, clientOptions, signal, progress,
    attempted(attempt) {
      count(attempt)
      if (attempt.notBefore !== undefined) client.holdUntil(attempt.notBefore)
    },
    problem(step, reason) {
      if (errors.length < MAX_REPORTED_PULL_ERRORS) errors.push({ step, reason })
    },
    async save() {
      const now = progress()
      Object.assign(row, now)
      await repo.updatePull(db, row.id, now)
      options.onProgress?.(toReport(row))
    },
    recorded(now) {
      Object.assign(row, now)
      options.onProgress?.(toReport(row))
    },
    async finishStep(key, tenant) {
      const at = new Date().toISOString()
      await repo.setCursor(db, source, key, JSON.stringify({ tenantId: tenant, completedAt: at }), at)
    },
    finishedEarlier: (state) => mark !== null && state.completedAt !== null && state.completedAt >= mark,
    async known(prefix, extra = []) {
      const rows = await repo.cursorsWithPrefix(db, source, prefix)
      const found = new Map(rows.map((r) => [r.key.slice(prefix.length), readState(r.value)]))
      for (const id of extra) if (!found.has(id)) found.set(id, { tenantId, completedAt: null })
      return [...found]
        .filter(([, state]) => tenantId === null || state.tenantId === null || state.tenantId === tenantId)
        .map(([id, state]) => ({ id, state }))
    },
  }
}
