import { createWriteStream } from 'node:fs'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { Kysely } from 'kysely'
import type { CallLog, CallLogQuery } from '../../../src-shared/schemas/call-log'
import type { CallLogFilter } from '../../../src-shared/schemas/call-log-search'
import type { JsonReads } from '../../db/json-reads'
import type { Database } from '../../db/schema'
import { type Principal, sourceScope, tenantScope } from '../../kit/access'
import { toCallLog } from './call-log-row'
import { type ExportFormat, exportStream } from './call-logs.export'
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
    /** The filtered view written to a file (the desktop app's export, after its save dialog). */
    async exportToFile(principal: Principal, filter: CallLogFilter, format: ExportFormat, path: string): Promise<{ path: string; rows: number }> {
      let rows = 0
      const stream = exportStream(db, json, principal, filter, format, (n) => (rows += n), budget)
      await pipeline(Readable.fromWeb(stream as never), createWriteStream(path))
      return { path, rows }
    },
  }
}

export type CallLogsService = ReturnType<typeof createCallLogsService>
