import type { PullStatus } from '../../db/schema'
import type { PullRow } from './pulls.repo'

/** Problems kept in a pull's report; the counts cover the rest. */
export const MAX_REPORTED_PULL_ERRORS = 100

export interface PullCounts {
  tenants: { fetched: number; invalid: number; missing: number }
  callLogs: { windows: number; fetched: number; inserted: number; duplicates: number; invalid: number; otherTenants: number }
  /** `unchanged`: agents whose listing's first page showed nothing new (a sync's quick check). */
  sessions: { agents: number; fetched: number; missing: number; unchanged: number }
  squadAnalytics: { fetched: number; missing: number }
  sipTrunks: { fetched: number }
  /** Language-model providers of the catalog whose details the remote gave; `missing`: it does not know them. */
  llmProviders: { fetched: number; missing: number }
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
  /** Its kind: `auth` (the token was refused), `unavailable` (still failing after the retries), `store`, … */
  failureKind: string | null
  durationMs: number | null
  /** A cycle of a continuous sync. */
  sync: boolean
}

export const emptyCounts = (): PullCounts => ({
  tenants: { fetched: 0, invalid: 0, missing: 0 },
  callLogs: { windows: 0, fetched: 0, inserted: 0, duplicates: 0, invalid: 0, otherTenants: 0 },
  sessions: { agents: 0, fetched: 0, missing: 0, unchanged: 0 },
  squadAnalytics: { fetched: 0, missing: 0 },
  sipTrunks: { fetched: 0 },
  llmProviders: { fetched: 0, missing: 0 },
  skipped: 0,
})

export const toReport = (row: PullRow): PullReport => ({
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
  failureKind: row.failure_kind,
  durationMs: row.duration_ms,
  sync: row.sync === 1,
})
