import { defineWriteJob } from '../../db/write-job'
import type { NewCallLog } from '../../db/schema'
import { storeCallLogsPg } from './call-logs.pg-write.repo'
import { type CallLogOrigin, finishOrphanedBulkLoads, prepareCallLogInsert, storeCallLogs } from './call-logs.write.repo'

type StoreArgs = { origin: CallLogOrigin; rows: NewCallLog[] }

/**
 * Stores checked call logs from one origin in one transaction (storeCallLogs; on PostgreSQL,
 * storeCallLogsPg: COPY into staging, then one insert); per row, whether it was new.
 */
export const storeCallLogsJob = defineWriteJob(
  'call-logs.store',
  ({ db, sqlite }, { origin, rows }: StoreArgs) => storeCallLogs(sqlite, prepareCallLogInsert(db, sqlite, origin), rows),
  ({ pool }, { origin, rows }: StoreArgs) => storeCallLogsPg(pool, origin, rows),
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
