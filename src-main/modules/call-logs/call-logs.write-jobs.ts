import { defineWriteJob } from '../../db/write-job'
import type { NewCallLog } from '../../db/schema'
import { type CallLogOrigin, prepareCallLogInsert, storeCallLogs } from './call-logs.write.repo'

/** Stores checked call logs from one origin in one transaction (storeCallLogs); per row, whether it was new. */
export const storeCallLogsJob = defineWriteJob('call-logs.store', ({ db, sqlite }, { origin, rows }: { origin: CallLogOrigin; rows: NewCallLog[] }) =>
  storeCallLogs(sqlite, prepareCallLogInsert(db, sqlite, origin), rows),
)
