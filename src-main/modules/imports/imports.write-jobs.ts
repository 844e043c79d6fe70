import { defineWriteJob, type WriteContext } from '../../db/write-job'
import { beginBulkLoad, prepareCallLogInsert } from '../call-logs/call-logs.write.repo'
import { createImportSink, type ImportEnd, type ImportSink } from './import-sink'
import { type ImportProgressColumns, type ImportRow, prepareProgressUpdate } from './imports.repo'
import { type AnyBatch, packedBuffers } from './parsed-batches'
import type { CopyBatch } from './copy-batches'
import { openPgImportSink, type PgImportSink } from './pg-import-sink'

/*
 * An import's writes, as write jobs on the store's writing connection (db/write-job.ts): one opens
 * the import's sink (import-sink.ts) and, in bulk, its load's transaction; one per parsed batch;
 * one ends it. The sink stays on the writing connection's side between jobs. On a PostgreSQL store
 * the same jobs run pg-import-sink.ts (COPY into staging) on a connection the sink holds.
 */

const key = (id: string) => `import:${id}`

function sinkOf<S = ImportSink>(ctx: Pick<WriteContext, 'sessions'>, id: string): S {
  const sink = ctx.sessions.get(key(id)) as S | undefined
  if (!sink) throw new Error(`No import ${id} is being written`)
  return sink
}

type OpenArgs = { row: ImportRow; bulk: boolean; batchSize: number }

export const openImportJob = defineWriteJob(
  'imports.open',
  (ctx, { row, bulk, batchSize }: OpenArgs) => {
    const { sqlite, db } = ctx
    const insert = prepareCallLogInsert(db, sqlite, { import_id: row.id, source: row.call_log_source })
    const saveProgress = prepareProgressUpdate(db, sqlite)
    ctx.sessions.set(key(row.id), createImportSink({ sqlite, storePath: ctx.path, row, insert, saveProgress, load: bulk ? beginBulkLoad(sqlite) : null, batchSize }))
  },
  // No bulk mode on PostgreSQL (pg-import-sink.ts): `bulk` is never asked of it (imports.service.ts).
  async (ctx, { row, batchSize }: OpenArgs) => {
    ctx.sessions.set(key(row.id), await openPgImportSink({ pool: ctx.pool, db: ctx.db, storePath: ctx.path, row, batchSize }))
  },
)

type WriteArgs = { id: string; batch: AnyBatch | CopyBatch; bytesRead: number }
type Written = { progress: ImportProgressColumns | null; failed: boolean }

/** The progress when the batch made the sink write, else null; `failed` once the store refused. */
export const writeImportJob = defineWriteJob(
  'imports.write',
  (ctx, { id, batch, bytesRead }: WriteArgs): Written => {
    const sink = sinkOf(ctx, id)
    // COPY text batches are only parsed for a PostgreSQL store (imports.service.ts).
    if ('copy' in batch) throw new Error('a COPY batch was sent to a SQLite store')
    return { progress: sink.add(batch, bytesRead), failed: sink.failed }
  },
  async (ctx, { id, batch, bytesRead }: WriteArgs): Promise<Written> => {
    const sink = sinkOf<PgImportSink>(ctx, id)
    return { progress: await sink.add(batch, bytesRead), failed: sink.failed }
  },
  // The parse worker's bytes go on to the writer thread unopened and uncopied (the importer is done with them).
  { transfer: ({ batch }) => ('copy' in batch ? [] : packedBuffers(batch)) },
)

type EndArgs = { id: string; readFailure: string | null; bytesRead: number }

export const endImportJob = defineWriteJob(
  'imports.end',
  (ctx, { id, readFailure, bytesRead }: EndArgs): ImportEnd => {
    const sink = sinkOf(ctx, id)
    ctx.sessions.delete(key(id))
    return sink.end(readFailure, bytesRead)
  },
  async (ctx, { id, readFailure, bytesRead }: EndArgs): Promise<ImportEnd> => {
    const sink = sinkOf<PgImportSink>(ctx, id)
    ctx.sessions.delete(key(id))
    return sink.end(readFailure, bytesRead)
  },
)
