import { defineWriteJob, type WriteContext } from '../../db/write-job'
import { beginBulkLoad, prepareCallLogInsert } from '../call-logs/call-logs.write.repo'
import { createImportSink, type ImportEnd, type ImportSink } from './import-sink'
import { type ImportProgressColumns, type ImportRow, prepareProgressUpdate } from './imports.repo'
import { type AnyBatch, packedBuffers } from './parsed-batches'

/*
 * An import's writes, as write jobs on the store's writing connection (db/write-job.ts): one opens
 * the import's sink (import-sink.ts) and, in bulk, its load's transaction; one per parsed batch;
 * one ends it. The sink stays on the writing connection's side between jobs.
 */

const key = (id: string) => `import:${id}`

function sinkOf(ctx: WriteContext, id: string): ImportSink {
  const sink = ctx.sessions.get(key(id)) as ImportSink | undefined
  if (!sink) throw new Error(`No import ${id} is being written`)
  return sink
}

export const openImportJob = defineWriteJob('imports.open', (ctx, { row, bulk, batchSize }: { row: ImportRow; bulk: boolean; batchSize: number }) => {
  const { sqlite, db } = ctx
  const insert = prepareCallLogInsert(db, sqlite, { import_id: row.id })
  const saveProgress = prepareProgressUpdate(db, sqlite)
  ctx.sessions.set(key(row.id), createImportSink({ sqlite, row, insert, saveProgress, load: bulk ? beginBulkLoad(sqlite) : null, batchSize }))
})

/** The progress when the batch made the sink write, else null; `failed` once the store refused. */
export const writeImportJob = defineWriteJob(
  'imports.write',
  (ctx, { id, batch, bytesRead }: { id: string; batch: AnyBatch; bytesRead: number }): { progress: ImportProgressColumns | null; failed: boolean } => {
    const sink = sinkOf(ctx, id)
    return { progress: sink.add(batch, bytesRead), failed: sink.failed }
  },
  // The parse worker's bytes go on to the writer unopened and uncopied (the importer is done with them).
  { transfer: ({ batch }) => packedBuffers(batch) },
)

export const endImportJob = defineWriteJob('imports.end', (ctx, { id, readFailure, bytesRead }: { id: string; readFailure: string | null; bytesRead: number }): ImportEnd => {
  const sink = sinkOf(ctx, id)
  ctx.sessions.delete(key(id))
  return sink.end(readFailure, bytesRead)
})
