import { tracked } from '@trpc/server'
import { callLogQuerySchema } from '../../../src-shared/schemas/call-log'
import { callLogTailInputSchema } from '../../../src-shared/schemas/call-log-stream'
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
    facets: procedure.input(filterInput).query(({ ctx, input, signal }) => callLogs.facets(ctx.principal, input.filter, signal)),
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
