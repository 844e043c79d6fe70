import type { WriteJob } from '../db/write-job'
import { finishOrphanedBulkLoadsJob, storeCallLogsJob } from '../modules/call-logs/call-logs.write-jobs'
import { backupJob, insertRowsJob, seedJob, snapshotJob } from '../modules/database/database.write-jobs'
import { endImportJob, openImportJob, writeImportJob } from '../modules/imports/imports.write-jobs'
import { beginPullBulkJob, endPullBulkJob, storePullBulkWindowJob, storePullWindowJob } from '../modules/pull/pull-call-logs.write-jobs'

/** Every write job, for the writer thread to find by name (a job missing here fails with "Unknown write job"). */
export const WRITE_JOBS: ReadonlyArray<WriteJob<never, unknown>> = [
  storeCallLogsJob, finishOrphanedBulkLoadsJob, openImportJob, writeImportJob, endImportJob, storePullWindowJob, beginPullBulkJob, storePullBulkWindowJob, endPullBulkJob, seedJob, snapshotJob, insertRowsJob, backupJob,
]

export const writeJobs = new Map(WRITE_JOBS.map((job) => [job.name, job as WriteJob<unknown, unknown>]))
