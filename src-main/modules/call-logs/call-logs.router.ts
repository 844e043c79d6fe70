import { tracked } from '@trpc/server'
import { callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { callLogTailInputSchema } from '../../../src-shared/schemas/call-log-stream'
import { callLogCountByInputSchema, callLogCountBySchema } from '../../../src-shared/schemas/call-log-count-by'
import { callLogFacetsSchema, detailsFacetInputSchema, detailsFacetSchema, detailsKeysInputSchema, detailsKeysSchema } from '../../../src-shared/schemas/call-log-facets'
import { callLogContextInputSchema, callLogFilterSchema, callLogSearchInputSchema } from '../../../src-shared/schemas/call-log-search'
import { z } from '../../../src-shared/schemas/zod'
import { procedure, requireDesktop, router } from '../../kit/trpc'
import { exportFileName } from './call-logs.export'
import type { CallLogsService } from './call-logs.service'

const filterInput = z.object({ filter: callLogFilterSchema })

export const callLogsRouter = (callLogs: CallLogsService) =>
  router({
    /** Takes the REST query object as it is: the same parsing, defaults and date rules. */
    list: procedure.input(callLogQuerySchema).query(({ ctx, input }) => callLogs.list(ctx.principal, input)),
    /** The console's table: richer filter, full-text search, keyset pages. */
    search: procedure
      .input(callLogSearchInputSchema)
      .query(({ ctx, input }) => callLogs.search(ctx.principal, input.filter, input.cursor, input.limit)),
    /** Counts by level, type, tenant and agent (with names) over the filter. */
    facets: procedure
      .input(filterInput)
      .output(callLogFacetsSchema)
      .query(({ ctx, input, signal }) => callLogs.facets(ctx.principal, input.filter, signal)),
    /**
     * The same counts as they go: answers over the newest time slices read so far, then the whole
     * (call-logs.facets.ts); the console's facets show each one, marked partial. Index range
     * counts (a bare time range) are one answer.
     */
    facetsProgress: procedure.input(filterInput).subscription(async function* ({ ctx, input, signal }) {
      yield* callLogs.facetsProgress(ctx.principal, input.filter, signal)
    }),
    /** The details keys of the newest matching lines, to pick a details facet from. */
    detailsKeys: procedure
      .input(detailsKeysInputSchema)
      .output(detailsKeysSchema)
      .query(({ ctx, input }) => callLogs.detailsKeys(ctx.principal, input.filter)),
    /** Top values of one details key over the newest matching lines, or over every line from the key's own index (0019). */
    detailsFacet: procedure
      .input(detailsFacetInputSchema)
      .output(detailsFacetSchema)
      .query(({ ctx, input }) => callLogs.detailsFacet(ctx.principal, input.filter, input.key)),
    /** The filtered lines by a field or details key per time bucket: top N groups and "other" (as GET /logs/calls/count-by). */
    countBy: procedure
      .input(callLogCountByInputSchema)
      .output(callLogCountBySchema)
      .query(({ ctx, input, signal }) => callLogs.countBy(ctx.principal, input.filter, input.by, input.top, signal)),
    /**
     * The same count as it goes: answers over the newest time slices read so far, then the whole
     * (call-logs.count-by.ts); the console's count-by panel shows each one, marked partial.
     */
    countByProgress: procedure.input(callLogCountByInputSchema).subscription(async function* ({ ctx, input, signal }) {
      yield* callLogs.countByProgress(ctx.principal, input.filter, input.by, input.top, signal)
    }),
    histogram: procedure.input(filterInput).query(({ ctx, input, signal }) => callLogs.histogram(ctx.principal, input.filter, signal)),
    /** Desktop only: asks where to save, then writes the filtered view there (no listener needed). */
    exportToFile: procedure
      .input(z.object({ filter: callLogFilterSchema, format: z.enum(['csv', 'ndjson']) }))
      .mutation(async ({ ctx, input }) => {
        const path = await requireDesktop(ctx).chooseSavePath(exportFileName(input.format))
        if (path === null) return { path: null, rows: 0 }
        return callLogs.exportToFile(ctx.principal, input.filter, input.format, path)
      }),
    /**
     * The live tail: batches of lines as they are stored. Each batch is tracked by its lastSeq, so
     * a client that reconnects (tRPC sends the last id back) resumes with nothing lost or repeated.
     */
    tail: procedure.input(callLogTailInputSchema).subscription(async function* ({ ctx, input, signal }) {
      const after = input.lastEventId ? Number(input.lastEventId) : undefined
      const batches = callLogs.follow(ctx.principal, input.filter, { after, backlog: input.backlog }, signal ?? new AbortController().signal)
      for await (const batch of batches) yield tracked(String(batch.lastSeq), batch)
    }),
    context: procedure
      .input(callLogContextInputSchema)
      .query(({ ctx, input }) => callLogs.context(ctx.principal, input.id, input.before, input.after, { scope: input.scope, same: input.same })),
  })
