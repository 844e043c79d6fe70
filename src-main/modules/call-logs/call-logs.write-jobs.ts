import { defineWriteJob } from '../../db/write-job'
import type { NewCallLog } from '../../db/schema'
import { type CallLogOrigin, finishOrphanedBulkLoads, prepareCallLogInsert, storeCallLogs } from './call-logs.write.repo'

/** Stores checked call logs from one origin in one transaction (storeCallLogs); per row, whether it was new. */
export const storeCallLogsJob = defineWriteJob('call-logs.store', ({ db, sqlite }, { origin, rows }: { origin: CallLogOrigin; rows: NewCallLog[] }) =>
  storeCallLogs(sqlite, prepareCallLogInsert(db, sqlite, origin), rows),
)

/**
 * Puts back the indexes of bulk loads a killed process left (finishOrphanedBulkLoads); how many
 * there were. Reports `'restoring'` as progress before the work starts.
 */
export const finishOrphanedBulkLoadsJob = defineWriteJob('call-logs.finish-orphaned-bulk-loads', (ctx, _args: Record<string, never>) =>
  finishOrphanedBulkLoads(ctx.db, ctx.sqlite, () => ctx.progress('restoring')),
)
