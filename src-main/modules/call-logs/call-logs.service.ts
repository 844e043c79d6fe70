import type { Writable } from 'node:stream'
import type { Kysely } from 'kysely'
import type { CallLog, CallLogQuery } from '../../../src-shared/schemas/call-log'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { JsonReads } from '../../db/json-reads'
import type { Database } from '../../db/schema'
import { type Principal, sourceScope, tenantScope } from '../../kit/access'
import { toCallLog } from './call-log-row'
import { type ExportFormat, exportChunks, exportStream } from './call-logs.export'
import { exportIntoFile, exportOnto } from './call-logs.export-file'
import * as repo from './call-logs.repo'
import { createCallLogCountBy } from './call-logs.count-by'
import { createCallLogFacets } from './call-logs.facets'
import { type CallLogSearchOptions, createCallLogSearch, defaultQueryBudget } from './call-logs.search'
import { createCallLogTail } from './call-logs.tail'
import { maxSeq } from './call-logs.tail.repo'
import { compileLogQuery, type LogQueryFilter } from './log-query'
import { createStoreWatch, type StoreWatch } from './store-watch'

function toFilter(principal: Principal, query: CallLogQuery): repo.CallLogFilter {
  return {
    from: query.start_date,
    to: query.end_date,
    agentId: query.agent_id,
    tenantId: tenantScope(principal),
    source: sourceScope(principal),
    limit: query.limit,
  }
}

export interface CallLogsServiceOptions extends CallLogSearchOptions {
  /** What the live tails wait on: the service's one watch (service.ts); its own otherwise. */
  watch?: StoreWatch
}

export function createCallLogsService(db: Kysely<Database>, json: JsonReads, options: CallLogsServiceOptions = {}) {
  const budget = options.queryBudgetMs ?? defaultQueryBudget()
  return {
    /** The console's search, histogram and context (call-logs.search.ts). */
    ...createCallLogSearch(db, { queryBudgetMs: budget }),
    /** The explorer's facets: level, type, tenant, agent and a details key (call-logs.facets.ts). */
    ...createCallLogFacets(db, budget),
    /** The explorer's count-by: lines per group and time bucket, top N and the rest (call-logs.count-by.ts). */
    ...createCallLogCountBy(db, budget),
    /** Lines as they are stored (call-logs.tail.ts): the live tail of the console, the CLI and the stream. */
    ...createCallLogTail(db, options.watch ?? createStoreWatch(() => maxSeq(db))),
    /**
     * The query language compiled (log-query.ts): its condition for `logQueryCondition` and its
     * time range. Throws LogQuerySyntaxError (an InvalidInputError) with the position. For live tail.
     */
    compileLogQuery(text: string, now?: Date): LogQueryFilter {
      return compileLogQuery(text, now)
    },
    /** Call logs, newest first; a tenant token sees only its tenant's records. */
    async list(principal: Principal, query: CallLogQuery): Promise<CallLog[]> {
      return (await repo.listCallLogs(db, toFilter(principal, query))).map(toCallLog)
    },
    /** The same listing as JSON bytes (UTF-8), ready to send: what the REST route serves. */
    listJson(principal: Principal, query: CallLogQuery): Promise<Uint8Array<ArrayBuffer>> {
      return repo.listCallLogsJson(db, json, toFilter(principal, query))
    },
    /**
     * The console's filtered view as CSV or NDJSON bytes, newest first, with no row cap: what the
     * HTTP download and `callscope export logs` stream. `onRows` is told each chunk's record count.
     */
    exportStream(principal: Principal, filter: CallLogFilter, format: ExportFormat, onRows?: (n: number) => void): ReadableStream<Uint8Array> {
      return exportStream(db, json, principal, filter, format, onRows, budget)
    },
    /**
     * The filtered view written to a file (the desktop app's export after its save dialog, and
     * `callscope export logs --out`): `path` appears only once whole; a failure part way says how
     * many rows the `.partial` file beside it holds (call-logs.export-file.ts).
     */
    async exportToFile(principal: Principal, filter: CallLogFilter, format: ExportFormat, path: string): Promise<{ path: string; rows: number }> {
      const rows = await exportIntoFile(exportChunks(db, json, principal, filter, format, budget), path)
      return { path, rows }
    },
    /** The filtered view written onto an open stream (`callscope export logs` to standard output); a failure says how many rows went out. */
    exportOnto(principal: Principal, filter: CallLogFilter, format: ExportFormat, out: Writable, name: string): Promise<number> {
      return exportOnto(exportChunks(db, json, principal, filter, format, budget), out, name)
    },
  }
}

export type CallLogsService = ReturnType<typeof createCallLogsService>
