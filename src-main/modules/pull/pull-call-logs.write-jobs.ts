import type { CompiledQuery } from 'kysely'
import type pg from 'pg'
import { executeOn } from '../../db/inline-store'
import { defineWriteJob, type WriteContext } from '../../db/write-job'
import { movableBuffers } from '../../lib/worker-feed'
import { type PackedCallLogValues, unpackCallLogValues } from '../call-logs/call-log-values'
import { storeCallLogsPg } from '../call-logs/call-logs.pg-write.repo'
import {
  beginCheckpointedLoad,
  type CallLogInsert,
  type CheckpointedLoad,
  prepareCallLogInsert,
  withCheckConstraintsOff,
  writeCallLogBatch,
} from '../call-logs/call-logs.write.repo'
import type { PullCounts } from './pull-report'
import * as repo from './pulls.repo'

/**
 * The pull's progress with a window's rows counted, new or already stored: what its record must
 * say once the window commits, written in the window's own transaction, so that a pull killed at
 * any moment leaves a record that counts exactly the rows it stored (issue 36).
 */
export function progressWithStored(progress: repo.PullProgressColumns, stored: readonly boolean[]): repo.PullProgressColumns {
  const counts = JSON.parse(progress.counts) as PullCounts
  for (const isNew of stored) {
    if (isNew) counts.callLogs.inserted++
    else counts.callLogs.duplicates++
  }
  return { ...progress, counts: JSON.stringify(counts) }
}

/** A window of a pull: its rows, the cursors it makes true and the pull's progress before it. */
export interface PullWindow {
  pullId: string
  source: string
  /** The window's checked rows as the store's values, in the order to store them, packed (they move here unopened). */
  rows: PackedCallLogValues
  /** Steps the window made known (addCursors), and the call log range covered so far (setCursor). */
  known: Array<{ key: string; value: string }>
  cover: { key: string; value: string }
  progress: repo.PullProgressColumns
  at: string
}

/** The window's cursors and the pull's progress as statements, for the window's transaction. */
function windowRecords(db: WriteContext['db'], w: PullWindow, stored: readonly boolean[]): CompiledQuery[] {
  return [
    ...(w.known.length ? [repo.addCursorsQuery(db, w.source, w.known, w.at).compile()] : []),
    repo.setCursorQuery(db, w.source, w.cover.key, w.cover.value, w.at).compile(),
    repo.updatePullQuery(db, w.pullId, progressWithStored(w.progress, stored)).compile(),
  ]
}

/**
 * Stores one window of a pull (window by window, every index live) with its cursors and the pull's
 * counts in one transaction: a process killed between them would leave rows its record does not
 * count, or a cursor past rows that are not there. Per row, whether it was new.
 */
export const storePullWindowJob = defineWriteJob(
  'pulls.window',
  ({ db, sqlite }, w: PullWindow): boolean[] => {
    const rows = unpackCallLogValues(w.rows)
    const insert = prepareCallLogInsert(db, sqlite, { pull_id: w.pullId, source: w.source })
    return writeCallLogBatch(sqlite, () => {
      const stored = rows.map((values) => insert(values))
      for (const statement of windowRecords(db, w, stored)) executeOn(sqlite, statement)
      return stored
    })
  },
  ({ pool, db }, w: PullWindow) =>
    storeCallLogsPg(pool, { pull_id: w.pullId, source: w.source }, unpackCallLogValues(w.rows), async (client: pg.ClientBase, stored) => {
      for (const { sql, parameters } of windowRecords(db, w, stored)) await client.query(sql, parameters as unknown[])
    }),
  { transfer: (w) => movableBuffers(w.rows.packed) },
)

/*
 * A first pull's call logs loaded in bulk (pull-call-logs.ts): one job begins the load, one per
 * window stores its rows with the pull's cursors and progress, one ends it. The load commits every
 * CHECKPOINT_RECORDS rows, cursors included, so a pull killed mid-load resumes from its last
 * checkpoint; the next open of the store puts the indexes back (finishOrphanedBulkLoads).
 */

/**
 * Rows per commit. A commit journals the pages of the id index it changed and waits for the disk;
 * every 100,000 rows, the commits of a million-row pull took about 3 s, 5% of its busy time
 * (docs/benchmarks.md, "Pull and sync"), and a killed pull loses a few seconds of fetching.
 */
export const CHECKPOINT_RECORDS = 100_000

/** Tests interrupt a load between checkpoints of a few rows (CALLSCOPE_BULK_CHECKPOINT_RECORDS); nothing else sets it. */
const checkpointRecords = () => Number(process.env.CALLSCOPE_BULK_CHECKPOINT_RECORDS) || CHECKPOINT_RECORDS

interface BulkSession {
  load: CheckpointedLoad
  insert: CallLogInsert
  sinceCheckpoint: number
}

const key = (pullId: string) => `pull-bulk:${pullId}`

/**
 * Begins the load; false when another load is under way (the pull then stores window by window),
 * and always on PostgreSQL: each window is one COPY there already, indexes live (storeCallLogsPg).
 */
export const beginPullBulkJob = defineWriteJob(
  'pulls.bulk-begin',
  (ctx, { pullId, source }: { pullId: string; source: string }): boolean => {
    const load = beginCheckpointedLoad(ctx.db, ctx.sqlite, pullId)
    if (!load) return false
    const session: BulkSession = { load, insert: prepareCallLogInsert(ctx.db, ctx.sqlite, { pull_id: pullId, source }), sinceCheckpoint: 0 }
    ctx.sessions.set(key(pullId), session)
    return true
  },
  async () => false,
)

function sessionOf(ctx: WriteContext, pullId: string): BulkSession {
  const session = ctx.sessions.get(key(pullId)) as BulkSession | undefined
  if (!session) throw new Error(`No bulk load of pull ${pullId} is under way`)
  return session
}

/** A window of a bulk load: the same as one stored window by window (PullWindow, below). */
export type BulkWindow = PullWindow

/** What a window's job stored: per row, whether it was new; and whether it committed the load so far (a checkpoint). */
export interface StoredWindow {
  stored: boolean[]
  checkpointed: boolean
}

/** Stores one window's rows with its cursors and the pull's progress, committing at a checkpoint. */
export const storePullBulkWindowJob = defineWriteJob(
  'pulls.bulk-window',
  (ctx, w: BulkWindow): StoredWindow => {
  const session = sessionOf(ctx, w.pullId)
  const { db, sqlite } = ctx
  const rows = unpackCallLogValues(w.rows)
  const stored = withCheckConstraintsOff(sqlite, () => rows.map((values) => session.insert(values)))
  if (w.known.length) executeOn(sqlite, repo.addCursorsQuery(db, w.source, w.known, w.at).compile())
  executeOn(sqlite, repo.setCursorQuery(db, w.source, w.cover.key, w.cover.value, w.at).compile())
  executeOn(sqlite, repo.updatePullQuery(db, w.pullId, progressWithStored(w.progress, stored)).compile())
  session.sinceCheckpoint += rows.length
  if (session.sinceCheckpoint < checkpointRecords()) return { stored, checkpointed: false }
  session.load.checkpoint()
  session.sinceCheckpoint = 0
  return { stored, checkpointed: true }
  },
  // A SQLite store only: a PostgreSQL one never begins a bulk load (beginPullBulkJob).
  undefined,
  { transfer: (w) => movableBuffers(w.rows.packed) },
)

/**
 * Ends the load: indexes back, committed. `failed` (the store refused a window) rolls back what
 * was written since the last checkpoint first; a pull stopped by the remote or cancelled keeps it.
 */
export const endPullBulkJob = defineWriteJob('pulls.bulk-end', (ctx, { pullId, failed }: { pullId: string; failed: boolean }): void => {
  const session = sessionOf(ctx, pullId)
  ctx.sessions.delete(key(pullId))
  if (failed) session.load.abort()
  else session.load.finish()
})
