import { defineWriteJob } from '../../db/write-job'
import { movableBuffers } from '../../lib/worker-feed'
import { type PackedCallLogValues, unpackCallLogValues } from './call-log-values'
import { storeCallLogsPg } from './call-logs.pg-write.repo'
import { type CallLogOrigin, finishOrphanedBulkLoads, prepareCallLogInsert, storeCallLogs } from './call-logs.write.repo'

type StoreArgs = { origin: CallLogOrigin; rows: PackedCallLogValues }

/**
 * Stores checked call logs from one origin in one transaction (storeCallLogs; on PostgreSQL,
 * storeCallLogsPg: COPY into staging, then one insert); per row, whether it was new. The rows come
 * packed and move to the writer thread unopened: the thread that sends them (a pull's, the
 * service's) neither rebuilds nor copies them (docs/architecture.md, "Pulling from a live backend").
 */
export const storeCallLogsJob = defineWriteJob(
  'call-logs.store',
  ({ db, sqlite }, { origin, rows }: StoreArgs) => storeCallLogs(sqlite, prepareCallLogInsert(db, sqlite, origin), unpackCallLogValues(rows)),
  ({ pool }, { origin, rows }: StoreArgs) => storeCallLogsPg(pool, origin, unpackCallLogValues(rows)),
  { transfer: ({ rows }) => movableBuffers(rows.packed) },
)

/**
 * Puts back the indexes of bulk loads a killed process left (finishOrphanedBulkLoads); how many
 * there were. Reports `'restoring'` as progress before the work starts.
 */
export const finishOrphanedBulkLoadsJob = defineWriteJob(
  'call-logs.finish-orphaned-bulk-loads',
  (ctx, _args: Record<string, never>) => finishOrphanedBulkLoads(ctx.db, ctx.sqlite, () => ctx.progress('restoring')),
  // A PostgreSQL store never drops its indexes for a load: nothing is ever left to restore.
  async () => 0,
)
